// Python's json.dumps(ensure_ascii=True) writes 0x20..0x7e raw except `"`
// and `\`, uses \" \\ \b \f \n \r \t, and writes every other UTF-16 unit as
// a lowercase \uXXXX escape: controls, DEL (0x7f), all non-ASCII, and each
// half of a surrogate pair or a lone surrogate alike.
const SPECIAL = /[\u0000-\u001f"\\\u007f-\uffff]/;
const HEX = "0123456789abcdef";

// Escapes by UTF-16 unit. Text in one language uses a few hundred units at
// most, so they are kept; the bound stops a flood of distinct characters
// from holding memory.
const ESCAPES_MAX = 4096;
const SHORT_ESCAPES: ReadonlyArray<readonly [number, string]> = [
  [0x22, '\\"'],
  [0x5c, "\\\\"],
  [0x08, "\\b"],
  [0x09, "\\t"],
  [0x0a, "\\n"],
  [0x0c, "\\f"],
  [0x0d, "\\r"],
];
const escapes = new Map<number, string>(SHORT_ESCAPES);

function escapeUnit(c: number): string {
  let e = escapes.get(c);
  if (e === undefined) {
    e = "\\u" + HEX[c >> 12]! + HEX[(c >> 8) & 15]! + HEX[(c >> 4) & 15]! + HEX[c & 15]!;
    if (escapes.size >= ESCAPES_MAX) {
      escapes.clear();
      for (const [unit, short] of SHORT_ESCAPES) escapes.set(unit, short);
    }
    escapes.set(c, e);
  }
  return e;
}

/** The string as a Python `ensure_ascii=True` JSON string literal. */
export function quoteString(s: string): string {
  let i = s.search(SPECIAL);
  // Most strings in request bodies are plain ASCII: one native scan, no copy.
  if (i === -1) return '"' + s + '"';
  let out = '"';
  let run = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) continue;
    if (run < i) out += s.slice(run, i);
    out += escapeUnit(c);
    run = i + 1;
  }
  return (run < s.length ? out + s.slice(run) : out) + '"';
}
