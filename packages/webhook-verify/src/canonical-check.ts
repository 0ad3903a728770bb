// Whether a body is already in canonical form decides how many signatures
// are computed. Running canonicalizeText on every delivery would cost more
// than the HMAC itself, so this one-pass scanner answers first. It may say
// "no" to a canonical body (floats, escaped keys: rare in events), which only
// costs a canonicalizeText call; it never says "yes" to a body whose
// canonical form differs, which would lose a candidate signature.

/** A run of printable ASCII except `"` and `\`: what canonical strings hold unescaped. */
const PLAIN = /[ !#-[\]-~]*/y;
/**
 * One escape as Python's `json.dumps(ensure_ascii=True)` writes it: a short
 * form, or lowercase `\uXXXX` only for other control characters, DEL and
 * non-ASCII. (Kept apart from PLAIN: a nested quantifier could backtrack
 * exponentially on hostile input.)
 */
const ESCAPE = /\\(?:["\\bfnrt]|u(?:00(?:0[0-7bef]|1[\da-f]|7f|[89a-f][\da-f])|0[1-9a-f][\da-f]{2}|[1-9a-f][\da-f]{3}))/y;
/** An integer other than -0 (floats are left to the slow path), or a literal. */
const OTHER_SCALAR = /(?:0|-?[1-9]\d*)(?![.eE\d])|true|false|null/y;
/** An object key without escapes (keys with escapes sort by decoded code point: slow path) and its colon. */
const KEY = /"[ !#-[\]-~]*":/y;

type Frame = string | undefined | null; // object: last key (undefined before the first); array: null

/** Offset after `regex` matched at `i`, or -1. */
function match(regex: RegExp, text: string, i: number): number {
  regex.lastIndex = i;
  return regex.test(text) ? regex.lastIndex : -1;
}

/** Offset after the canonical string literal at `i`, or -1. */
function scanString(text: string, i: number): number {
  for (i++; ; ) {
    i = match(PLAIN, text, i);
    if (text.charCodeAt(i) === 0x22) return i + 1;
    i = match(ESCAPE, text, i);
    if (i < 0) return -1;
  }
}

/** Reads a key at `i` into the top frame if it sorts after the previous one; returns the offset after it or -1. */
function scanKey(text: string, i: number, frames: Frame[]): number {
  const end = match(KEY, text, i);
  if (end < 0) return -1;
  const name = text.slice(i + 1, end - 2);
  const previous = frames[frames.length - 1];
  if (previous !== undefined && !(previous! < name)) return -1; // unsorted or repeated
  frames[frames.length - 1] = name;
  return end;
}

/**
 * True only if `canonicalizeText(text) === text`: no whitespace, keys
 * sorted and unique, canonical strings and integers.
 */
export function isCanonicalJson(text: string): boolean {
  const frames: Frame[] = [];
  let i = 0;
  for (;;) {
    const c = text.charCodeAt(i);
    const opens = c === 0x7b || c === 0x5b; // { or [
    if (opens && text.charCodeAt(i + 1) !== c + 2 /* } or ] */) {
      frames.push(c === 0x5b ? null : undefined);
      i = c === 0x5b ? i + 1 : scanKey(text, i + 1, frames);
      if (i < 0) return false;
      continue;
    }
    i = opens ? i + 2 : c === 0x22 ? scanString(text, i) : match(OTHER_SCALAR, text, i);
    // After a value: close what ends here, then go on to the next value or key.
    for (;;) {
      if (i < 0) return false;
      if (frames.length === 0) return i === text.length;
      const inArray = frames[frames.length - 1] === null;
      const d = text.charCodeAt(i);
      if (d === (inArray ? 0x5d : 0x7d)) {
        frames.pop();
        i++;
      } else if (d !== 0x2c /* , */) return false;
      else {
        i = inArray ? i + 1 : scanKey(text, i + 1, frames);
        if (i < 0) return false;
        break;
      }
    }
  }
}
