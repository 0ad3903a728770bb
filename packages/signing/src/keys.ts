// Python sorts dict keys by code point; Array#sort compares UTF-16 code
// units. The two orders agree until a key holds a unit at or above U+D800:
// an astral character (a surrogate pair, code point > U+FFFF) sorts after
// U+E000..U+FFFF in Python but before it in UTF-16 order.
const AT_OR_ABOVE_SURROGATES = /[\ud800-\uffff]/;

/**
 * A string whose UTF-16 order equals the code point order of `codePoints`:
 * code points below U+D800 stay one unit, the rest become a lead unit
 * >= U+D800 carrying the high bits and a trail unit carrying the low 10.
 */
export function codePointOrderKey(codePoints: Iterable<number>): string {
  let key = "";
  for (const cp of codePoints) {
    if (cp < 0xd800) key += String.fromCharCode(cp);
    else {
      const t = cp - 0xd800;
      key += String.fromCharCode(0xd800 + (t >> 10), t & 0x3ff);
    }
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
export function sortKeys(keys: string[]): string[] {
  keys.sort();
  for (let i = 0; i < keys.length; i++) {
    if (AT_OR_ABOVE_SURROGATES.test(keys[i]!)) return sortByCodePoint(keys);
  }
  return keys;
}

function sortByCodePoint(keys: string[]): string[] {
  const tagged = keys.map((k) => [codePointOrderKey(codePointsOf(k)), k] as const);
  tagged.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (let i = 0; i < keys.length; i++) keys[i] = tagged[i]![1];
  return keys;
}
