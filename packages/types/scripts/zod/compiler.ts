// JSON Schema -> zod 4: the dispatch of a schema to its keyword families, in this order:
//   boolean schemas, unknown keywords (an error), $ref (refs.ts), the type a schema gets from its keywords or its
//   parent and `nullable` (types.ts), allOf (composition.ts), oneOf/anyOf (unions.ts), else const/enum
//   (literals.ts) or the type's own keywords (types.ts and one module per type), then the checks that apply
//   whatever the type: not, dependentRequired, if/then/else.
import {
  isSchemaObject,
  isTrivial,
  type JsonSchema,
  type JsonType,
  type SchemaObject,
  SUPPORTED,
  typeList,
} from "@exchange-kit/spec-tools/json-schema";
import type { OpenApiSpec } from "@exchange-kit/spec-tools/spec";
import { allOfSchema, conditionalCheck, notCheck } from "./composition.ts";
import { type Compiler, type Zod, zod } from "./context.ts";
import type { HelperName } from "./helpers.ts";
import { enumOrConst } from "./literals.ts";
import { dependentRequiredCheck } from "./objects.ts";
import { ComponentSchemas, refConjunction } from "./refs.ts";
import { typedSchema, withImpliedType, withoutNullable } from "./types.ts";
import { unionSchema } from "./unions.ts";

/** Throws on a keyword the compiler does not understand, so the spec cannot outgrow it silently. */
function assertSupported(schema: SchemaObject, where: string): void {
  for (const k of Object.keys(schema)) {
    if (!SUPPORTED.has(k) && !k.startsWith("x-")) throw new Error(`${where}: unsupported keyword "${k}"`);
  }
}

export class ZodCompiler implements Compiler {
  readonly doc: OpenApiSpec;
  readonly helpers = new Set<HelperName>();
  readonly components: ComponentSchemas;

  constructor(doc: OpenApiSpec) {
    this.doc = doc;
    this.components = new ComponentSchemas(this);
  }

  translate(schema: JsonSchema | undefined, inherited: readonly JsonType[] | undefined, where: string): Zod {
    if (schema === true || schema === undefined) return zod("z.unknown()");
    if (schema === false) return zod("z.never()");
    if (!isSchemaObject(schema)) throw new Error(`${where}: a schema must be an object or a boolean`);
    assertSupported(schema, where);
    if (typeof schema.$ref === "string") {
      const conjunction = refConjunction(schema);
      return conjunction ? this.translate(conjunction, inherited, where) : this.components.ref(schema.$ref);
    }
    if (isTrivial(schema)) return zod("z.unknown()");

    const typed = withoutNullable(withImpliedType(schema, inherited));
    const ownTypes = typeList(typed.type) ?? inherited;
    if (Array.isArray(typed.allOf)) return allOfSchema(this, typed, inherited, ownTypes, where);
    const union = unionSchema(this, typed, inherited, ownTypes, where);
    if (union) return union;

    const result = enumOrConst(typed, where) ?? typedSchema(this, typed, where);
    const checks =
      notCheck(this, typed, where) + dependentRequiredCheck(this, typed) + conditionalCheck(this, typed, where);
    return { code: result.code + checks, duOk: result.duOk };
  }
}
