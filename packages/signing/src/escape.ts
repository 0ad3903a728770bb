// JSON.stringify already writes quotes, backslashes, control characters and
// lone surrogates exactly as Python's json.dumps does (short forms for
// \b \f \n \r \t, lowercase \u00XX otherwise). What it leaves raw is DEL and
// everything above it, which ensure_ascii=True escapes. Python's ASCII-safe
// range is 0x20..0x7e, so 0x7f is escaped too.
const NEEDS_ESCAPE = /[\u007f-\uffff]/;
const NEEDS_ESCAPE_ALL = /[\u007f-\uffff]/g;

function escapeUnit(unit: string): string {
  const hex = unit.charCodeAt(0).toString(16);
  return "\\u" + "0000".slice(hex.length) + hex;
}

/** The string as a Python `ensure_ascii=True` JSON string literal. */
export function quoteString(s: string): string {
  const json = JSON.stringify(s);
  // Most strings in request bodies are ASCII: one regex test, no copy.
  return NEEDS_ESCAPE.test(json) ? json.replace(NEEDS_ESCAPE_ALL, escapeUnit) : json;
}
