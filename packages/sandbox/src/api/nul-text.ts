// U+0000 in any text a request carries is refused with 400 INPUT_MALFORMED, on both engines. PostgreSQL cannot
// store or compare it in text ("invalid byte sequence for encoding UTF8: 0x00", a 500), while SQLite takes it;
// the document gives no rule, so the sandbox refuses it before any store sees it and both engines answer alike.
import { ApiError } from "../domain/api-error.js";

export const NUL_MESSAGE = "Text may not contain the NUL character (U+0000).";

/**
 * The name of the first field whose key or text holds U+0000 (`body.address.city`, `q`), or undefined.
 *
 * @example
 * fieldWithNul({ full_name: "A\u0000" }, "body"); // "body.full_name"
 * fieldWithNul({ tags: ["ok"] }, "body"); // undefined
 */
export function fieldWithNul(value: unknown, name: string): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? name : undefined;
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const field = `${name}.${key}`;
    if (key.includes("\u0000")) return field;
    const found = fieldWithNul(inner, field);
    if (found) return found;
  }
  return undefined;
}

/** Every value of a query (a name given more than once is checked each time), as refuseNul checks them. */
export function refuseNulInQuery(query: URLSearchParams): void {
  for (const [name, value] of query) refuseNul({ [name]: value });
}

/**
 * Throws 400 INPUT_MALFORMED naming the field when any of `values` (a name each: the body, each query and path
 * value) holds U+0000.
 *
 * @example
 * refuseNul({ q: "x\u0000" }); // throws ApiError 400 INPUT_MALFORMED, errors { q: [NUL_MESSAGE] }
 */
export function refuseNul(values: Readonly<Record<string, unknown>>): void {
  for (const [name, value] of Object.entries(values)) {
    const field = name.includes("\u0000") ? "non_field_errors" : fieldWithNul(value, name);
    if (field) throw new ApiError(400, "INPUT_MALFORMED", NUL_MESSAGE, { [field]: [NUL_MESSAGE] });
  }
}
