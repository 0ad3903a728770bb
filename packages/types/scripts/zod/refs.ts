// $ref and component names: each component schema is declared once, as `export const <Alias>Schema`, before the
// first declaration that references it; a reference back into a cycle is z.lazy(() => ...), and the component it
// names is annotated `z.ZodType<unknown>` (TypeScript cannot infer a type that refers to itself).
import { isSchemaObject, isTrivial, type JsonSchema, type SchemaObject } from "@exchange-kit/spec-tools/json-schema";
import { componentAliases, docComment, zodName } from "../lib/names.ts";
import { schemaRefName } from "@exchange-kit/spec-tools/spec";
import type { Compiler, Zod } from "./context.ts";

/**
 * A `$ref` with assertion siblings is the conjunction of both (OpenAPI 3.1): `allOf: [ref, siblings]`. Undefined
 * for a plain reference (annotation siblings only).
 */
export function refConjunction(schema: SchemaObject): SchemaObject | undefined {
  const siblings = Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "$ref"));
  return isTrivial(siblings) ? undefined : { allOf: [{ $ref: schema.$ref }, siblings] };
}

/** The doc comment of a component's declaration: its title (unless it is the name) and description. */
function componentDoc(name: string, schema: JsonSchema): string {
  const texts = isSchemaObject(schema) ? [schema.title !== name ? schema.title : undefined, schema.description] : [];
  return docComment(texts.filter(Boolean).join("\n\n") || `The ${name} component.`);
}

/** The declarations of the component schemas, made on first reference. */
export class ComponentSchemas {
  readonly #compiler: Compiler;
  readonly #schemas: Record<string, JsonSchema>;
  readonly #aliases: Map<string, string>;
  /** componentName -> its declared name, once declared */
  readonly #done = new Map<string, Zod>();
  readonly #inProgress = new Set<string>();
  /** Components referenced lazily from inside a cycle: their declaration gets a type annotation. */
  readonly #lazyTargets = new Set<string>();
  #declarations: string[] = [];

  constructor(compiler: Compiler) {
    this.#compiler = compiler;
    this.#schemas = compiler.doc.components?.schemas ?? {};
    this.#aliases = componentAliases(compiler.doc);
  }

  /** Component name -> alias, in document order. */
  get aliases(): ReadonlyMap<string, string> {
    return this.#aliases;
  }

  /** Every component's name. */
  get names(): string[] {
    return Object.keys(this.#schemas);
  }

  #id(name: string): string {
    return zodName(this.#aliases.get(name) as string);
  }

  /** Declares a component (once); undefined while it is being declared (a reference back into a cycle). */
  ensure(name: string): Zod | undefined {
    const done = this.#done.get(name);
    if (done) return done;
    if (!Object.hasOwn(this.#schemas, name)) throw new Error(`Reference to unknown component schema ${name}`);
    if (this.#inProgress.has(name)) return undefined;
    this.#inProgress.add(name);
    const schema = this.#schemas[name] as JsonSchema;
    const result = this.#compiler.translate(schema, undefined, `#/components/schemas/${name}`);
    this.#inProgress.delete(name);
    const id = this.#id(name);
    const annotation = this.#lazyTargets.has(name) ? ": z.ZodType<unknown>" : "";
    this.#declarations.push(`${componentDoc(name, schema)}export const ${id}${annotation} = ${result.code};`);
    const entry = { code: id, duOk: result.duOk && annotation === "" };
    this.#done.set(name, entry);
    return entry;
  }

  /** The expression of a `$ref` to a component schema. */
  ref(ref: string): Zod {
    const name = schemaRefName(ref);
    if (name === undefined) throw new Error(`Only references to components.schemas are supported, got ${ref}`);
    const entry = this.ensure(name);
    if (entry) return entry;
    this.#lazyTargets.add(name);
    return { code: `z.lazy(() => ${this.#id(name)})`, duOk: false };
  }

  /** The declarations made since the last call, in order. */
  takeDeclarations(): string[] {
    const out = this.#declarations;
    this.#declarations = [];
    return out;
  }
}
