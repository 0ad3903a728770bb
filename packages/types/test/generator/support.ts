// Test support for the zod compiler's modules: a compiler over a spec made of a few component schemas, and the
// zod source it writes for one schema.
import type { JsonSchema } from "@exchange-kit/spec-tools/json-schema";
import type { OpenApiSpec } from "@exchange-kit/spec-tools/spec";
import { ZodCompiler } from "../../scripts/zod/compiler.ts";
import type { HelperName } from "../../scripts/zod/helpers.ts";

/** A spec with these component schemas and nothing else. */
export function specWith(schemas: Record<string, JsonSchema> = {}): OpenApiSpec {
  return { paths: {}, components: { schemas } };
}

/** A compiler over a spec with these component schemas. */
export function compilerFor(schemas: Record<string, JsonSchema> = {}): ZodCompiler {
  return new ZodCompiler(specWith(schemas));
}

/** What translating one schema gives: the expression and the runtime helpers it calls. */
export interface Translated {
  code: string;
  helpers: HelperName[];
}

/** The zod source of `schema` (its `$ref`s resolved against `components`), and the helpers it needs. */
export function translate(schema: JsonSchema, components: Record<string, JsonSchema> = {}): Translated {
  const compiler = compilerFor(components);
  const { code } = compiler.translate(schema, undefined, "#");
  return { code, helpers: [...compiler.helpers].sort() };
}

/** The zod source of `schema` alone. */
export function zodOf(schema: JsonSchema, components: Record<string, JsonSchema> = {}): string {
  return translate(schema, components).code;
}

/** The declarations of every component, in the order the module declares them. */
export function declarationsOf(components: Record<string, JsonSchema>): string[] {
  const compiler = compilerFor(components);
  for (const name of Object.keys(components)) compiler.components.ensure(name);
  return compiler.components.takeDeclarations();
}
