// `items`: the schema of an array's items, compared at `at[]` (a missing one is the empty schema, any item).
import type { SchemaRule } from "./rule.ts";

export const itemsRule: SchemaRule = ({ oldSchema, newSchema, at, compare }) => {
  if (oldSchema.items === undefined && newSchema.items === undefined) return;
  compare(oldSchema.items ?? {}, newSchema.items ?? {}, `${at}[]`);
};
