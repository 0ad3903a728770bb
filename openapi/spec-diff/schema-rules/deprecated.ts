// `deprecated` on a schema (a member, or a component): a notice to clients, never breaking, always reported so a
// deprecation is not mistaken for "no change".
import type { SchemaRule } from "./rule.ts";

export const deprecatedRule: SchemaRule = ({ oldSchema, newSchema, report }) => {
  const before = oldSchema.deprecated === true;
  const after = newSchema.deprecated === true;
  if (before === after) return;
  report(after ? "schema-deprecated" : "schema-undeprecated", false, after ? "deprecated" : "no longer deprecated");
};
