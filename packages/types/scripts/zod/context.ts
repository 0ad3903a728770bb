// What the keyword modules share: the zod expression they return and the compiler they call back into for
// subschemas.
import type { JsonSchema, JsonType } from "@exchange-kit/spec-tools/json-schema";
import type { OpenApiSpec } from "@exchange-kit/spec-tools/spec";
import type { HelperName } from "./helpers.ts";

/** A zod expression. */
export interface Zod {
  code: string;
  /** True when z.discriminatedUnion accepts it as an option: a plain object schema, or a reference to one. */
  duOk: boolean;
}

/** A zod expression that is not an object schema. */
export const zod = (code: string): Zod => ({ code, duOk: false });

/** The compiler as the keyword modules see it. */
export interface Compiler {
  /** The bundled spec, for `$ref`s. */
  readonly doc: OpenApiSpec;
  /** The runtime helpers the emitted module uses (each module adds the ones its code calls). */
  readonly helpers: Set<HelperName>;
  /**
   * A subschema's zod expression. `inherited`: the parent's types, for a subschema of an applicator that states
   * none of its own (`{ required: [...] }` in a oneOf of objects); `where`: a JSON pointer for error messages.
   */
  translate(schema: JsonSchema | undefined, inherited: readonly JsonType[] | undefined, where: string): Zod;
}
