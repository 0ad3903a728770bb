// Python sorts dict keys by code point; Array#sort compares UTF-16 code
// units. The two orders agree until a key holds a unit at or above U+D800:
// an astral character (a surrogate pair, code point > U+FFFF) sorts after
// U+E000..U+FFFF in Python but before it in UTF-16 order.

/**
 * A string whose UTF-16 order equals the code point order of `codePoints`:
 * code points below U+D800 stay one unit, the rest become a lead unit
 * >= U+D800 carrying the high bits and a trail unit carrying the low 10.
 */
export function codePointOrderKey(codePoints: Iterable<number>): string {
  let key = "";
  for (const cp of codePoints) {
    const t = cp - 0xd800;
    key += t < 0 ? String.fromCharCode(cp) : String.fromCharCode(0xd800 + (t >> 10), t & 0x3ff);
  }
  return key;
}

/** Code points of a JavaScript string as Python sees it: pairs joined, lone surrogates kept. */
function* codePointsOf(s: string): Generator<number> {
  for (let i = 0; i < s.length; i++) {
    const cp = s.codePointAt(i)!;
    if (cp > 0xffff) i++;
    yield cp;
  }
}

/** Sorts in place in Python's order and returns the array. */
export function sortByCodePoint(keys: string[]): string[] {
  const order = new Map(keys.map((k) => [k, codePointOrderKey(codePointsOf(k))]));
  return keys.sort((a, b) => (order.get(a)! < order.get(b)! ? -1 : 1));
}
