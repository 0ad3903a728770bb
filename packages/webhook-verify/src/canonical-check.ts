// Whether a body is already in canonical form decides how many signatures
// are computed. Running canonicalizeText on every delivery would cost more
// than the HMAC itself, so this one-pass scanner answers first. It may say
// "no" to a canonical body (floats, escaped keys: rare in events), which only
// costs a canonicalizeText call; it never says "yes" to a body whose
// canonical form differs, which would lose a candidate signature.

/**
 * A value other than an object or array, in canonical form: a string
 * literal, an integer other than -0 (floats are left to the slow path), or a
 * literal. A string holds printable ASCII except `"` and `\` as is, and
 * escapes as Python's `json.dumps(ensure_ascii=True)` writes them: a short
 * form, or lowercase `\uXXXX` for the other control characters, DEL and
 * non-ASCII (never for 0008-000a, 000c, 000d or printable ASCII). The string
 * pattern is an unrolled loop (plain run, then escape and plain run, ...): it
 * cannot match one text in two ways, so hostile input cannot make it
 * backtrack exponentially.
 */
const SCALAR =
  /"[ !#-[\]-~]*(?:\\(?:["\\bfnrt]|u(?!00(?:0[89acd]|[2-6]|7[\da-e]))[\da-f]{4})[ !#-[\]-~]*)*"|(?:0|-?[1-9]\d*)(?![.eE\d])|true|false|null/y;
/** An object key without escapes (keys with escapes sort by decoded code point: slow path) and its colon. */
const KEY = /"[ !#-[\]-~]*":/y;

type Frame = string | undefined | null; // object: last key (undefined before the first); array: null

/** Offset after `regex` matched at `i`, or -1. */
function match(regex: RegExp, text: string, i: number): number {
  regex.lastIndex = i;
  return regex.test(text) ? regex.lastIndex : -1;
}

/**
 * True only if `canonicalizeText(text) === text`: no whitespace, keys
 * sorted and unique, canonical strings and integers.
 */
export function isCanonicalJson(text: string): boolean {
  const frames: Frame[] = [];
  let i = 0;
  for (;;) {
    // A value starts at i.
    const c = text.charCodeAt(i);
    const opens = c === 0x7b || c === 0x5b; // { or [
    if (opens && text.charCodeAt(i + 1) !== c + 2 /* } or ] */) {
      frames.push(c === 0x5b ? null : undefined); // a non-empty object or array: its first member next
      i++;
    } else {
      i = opens ? i + 2 : match(SCALAR, text, i);
      // After a value: close what ends here, then go on to the next member.
      for (;;) {
        if (i < 0) return false;
        if (frames.length === 0) return i === text.length;
        const d = text.charCodeAt(i++);
        if (d === 0x2c /* , */) break;
        if (d !== (frames[frames.length - 1] === null ? 0x5d : 0x7d)) return false;
        frames.pop();
      }
    }
    // An object's member starts with its key, which must sort after the previous one.
    const previous = frames[frames.length - 1];
    if (previous !== null) {
      const end = match(KEY, text, i);
      if (end < 0) return false;
      const name = text.slice(i + 1, end - 2);
      if (previous !== undefined && !(previous < name)) return false; // unsorted or repeated
      frames[frames.length - 1] = name;
      i = end;
    }
  }
}
