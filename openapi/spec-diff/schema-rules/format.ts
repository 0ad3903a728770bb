// `format`: a request may now be checked against a format it was not before; a response may lose one a client read.
import type { SchemaRule } from "./rule.ts";

export const formatRule: SchemaRule = ({ oldSchema, newSchema, request, report }) => {
  if (oldSchema.format === newSchema.format) return;
  const had = typeof oldSchema.format === "string";
  const has = typeof newSchema.format === "string";
  const message = `format ${had ? String(oldSchema.format) : "none"} -> ${has ? String(newSchema.format) : "none"}`;
  report("format-changed", request ? has : had, message);
};
