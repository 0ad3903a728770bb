// Writing zod source text: literals and the layout of argument lists (one line when short, else one item a line).
import type { Json } from "@exchange-kit/spec-tools/json-schema";

/** A JSON value as a TypeScript literal. */
export const literal = (value: Json): string => JSON.stringify(value);

function indentLines(code: string, by: string): string {
  return code.replace(/\n/g, `\n${by}`);
}

/**
 * `open items... close`: on one line when it fits in 100 characters and no item spans lines, else one item a
 * line, indented by two spaces, each followed by a comma. Braces get inner spaces (`{ a: 1 }`).
 */
export function list(items: readonly string[], open: string, close: string): string {
  if (items.length === 0) return `${open}${close}`;
  const pad = open.endsWith("{") ? " " : "";
  const single = `${open}${pad}${items.join(", ")}${pad}${close}`;
  if (!single.includes("\n") && single.length <= 100) return single;
  return `${open}\n${items.map((item) => `  ${indentLines(item, "  ")},`).join("\n")}\n${close}`;
}
