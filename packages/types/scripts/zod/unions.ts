// anyOf and oneOf. The parent's own keywords are distributed into each member (merged); members pinned apart by a
// property (OpenAPI `discriminator`, or found) give z.discriminatedUnion, else z.union; a oneOf whose members may
// overlap also checks that exactly one member matches (the oneOf helper).
import { admittedTypes, findDiscriminator } from "../lib/discriminator.ts";
import {
  type Discriminator,
  isTrivial,
  type JsonSchema,
  type JsonType,
  type SchemaObject,
  typeList,
} from "@exchange-kit/spec-tools/json-schema";
import { mergeSchemas } from "../lib/merge.ts";
import { schemaRefName } from "@exchange-kit/spec-tools/spec";
import { intersectAll } from "./composition.ts";
import { type Compiler, type Zod, zod } from "./context.ts";
import { list, literal } from "./source.ts";

export type UnionKeyword = "oneOf" | "anyOf";

/** True when no two members admit a common JSON type (an integer is a number), so at most one can match. */
function disjointTypes(compiler: Compiler, members: readonly JsonSchema[]): boolean {
  const sets = members.map((m) =>
    admittedTypes(compiler.doc, m)?.map((t): JsonType => (t === "integer" ? "number" : t)),
  );
  if (!sets.every(Boolean)) return false;
  const all = sets.flatMap((s) => [...new Set(s)]);
  return new Set(all).size === all.length;
}

/** Throws when the discriminator's mapping sends a value to another member than the one that pins it. */
function checkMapping(
  members: readonly JsonSchema[],
  mapping: Record<string, string>,
  sets: readonly (readonly unknown[])[],
  where: string,
): void {
  for (const [value, target] of Object.entries(mapping)) {
    const index = sets.findIndex((s) => s.includes(value));
    const member = members[index];
    const ref = typeof member === "object" ? member.$ref : undefined;
    if (index < 0 || (ref !== undefined && ref !== target && schemaRefName(ref) !== target)) {
      throw new Error(`${where}: discriminator mapping ${value} -> ${target} disagrees with the members`);
    }
  }
}

/** The union of the members (one member: that member). */
export function union(
  compiler: Compiler,
  keyword: UnionKeyword,
  members: readonly JsonSchema[],
  discriminator: Discriminator | undefined,
  inheritedTypes: readonly JsonType[] | undefined,
  where: string,
): Zod {
  const translated = members.map((m, i) => compiler.translate(m, inheritedTypes, `${where}/${keyword}/${i}`));
  if (translated.length === 1) return translated[0] as Zod;
  const found = findDiscriminator(compiler.doc, members, discriminator?.propertyName);
  if (discriminator?.propertyName && !found) {
    throw new Error(
      `${where}: discriminator "${discriminator.propertyName}" does not tell the ${keyword} members apart`,
    );
  }
  if (found && discriminator?.mapping) checkMapping(members, discriminator.mapping, found.sets, where);
  const codes = translated.map((t) => t.code);
  if (found && translated.every((t) => t.duOk)) {
    return { code: list([literal(found.name), list(codes, "[", "]")], "z.discriminatedUnion(", ")"), duOk: true };
  }
  if (keyword === "oneOf" && !found && !disjointTypes(compiler, members)) {
    compiler.helpers.add("oneOf");
    return zod(`oneOf(${list(codes, "[", "]")})`);
  }
  return zod(`z.union(${list(codes, "[", "]")})`);
}

/**
 * A schema with oneOf (else anyOf): the union of its members, each merged with the schema's own keywords; when a
 * member does not merge, the schema's own keywords intersected with the union of the members as they are.
 * Undefined when the schema has neither keyword.
 */
export function unionSchema(
  compiler: Compiler,
  schema: SchemaObject,
  inherited: readonly JsonType[] | undefined,
  ownTypes: readonly JsonType[] | undefined,
  where: string,
): Zod | undefined {
  const keyword = Array.isArray(schema.oneOf) ? "oneOf" : Array.isArray(schema.anyOf) ? "anyOf" : undefined;
  if (keyword === undefined) return undefined;
  const { [keyword]: members = [], discriminator, ...base } = schema;
  const distributed = members.map((m) => (isTrivial(base) ? m : mergeSchemas(compiler.doc, base, m)));
  if (distributed.every((m) => m !== undefined)) {
    return union(compiler, keyword, distributed, discriminator, ownTypes, where);
  }
  const baseCode = compiler.translate(base, inherited, where);
  const unionOfMembers = union(compiler, keyword, members, discriminator, typeList(base.type) ?? ownTypes, where);
  return zod(intersectAll(compiler, [baseCode.code, unionOfMembers.code]));
}
