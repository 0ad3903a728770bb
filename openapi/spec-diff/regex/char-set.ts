// Sets of characters as sorted, disjoint, inclusive code point ranges: what one position of a pattern accepts
// (`a`, `[A-Z0-9]`, `\d`, `.`), so that two positions can be compared as sets.

/** Sorted, disjoint, non-adjacent `[low, high]` ranges of code points. */
export type CharSet = readonly (readonly [number, number])[];

const MAX = 0x10ffff;

/** A set from any ranges (unsorted, overlapping), normalized. */
export function charSet(ranges: readonly (readonly [number, number])[]): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [low, high] of sorted) {
    const last = out.at(-1);
    if (last && low <= last[1] + 1) last[1] = Math.max(last[1], high);
    else out.push([low, high]);
  }
  return out;
}

export const single = (char: string): CharSet => charSet([[char.codePointAt(0)!, char.codePointAt(0)!]]);

export const union = (...sets: CharSet[]): CharSet => charSet(sets.flat());

/** Every code point not in `set`. */
export function complement(set: CharSet): CharSet {
  const out: [number, number][] = [];
  let next = 0;
  for (const [low, high] of set) {
    if (low > next) out.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX) out.push([next, MAX]);
  return out;
}

/** Whether every character of `inner` is in `outer`. */
export function isSubset(inner: CharSet, outer: CharSet): boolean {
  return inner.every(([low, high]) => outer.some(([l, h]) => l <= low && high <= h));
}

const DIGITS = charSet([[0x30, 0x39]]);
const WORD = charSet([
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
]);
// ECMAScript's WhiteSpace and LineTerminator: what `\s` matches.
const SPACE = charSet(
  [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]
    .map((c): [number, number] => [c, c])
    .concat([[0x2000, 0x200a]]),
);
const LINE_TERMINATORS = charSet([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
]);

/** The sets of the class escapes (`\d`, `\W`, ...), and `.` (any character but a line terminator). */
export const CLASS_ESCAPES: Readonly<Record<string, CharSet>> = {
  d: DIGITS,
  D: complement(DIGITS),
  w: WORD,
  W: complement(WORD),
  s: SPACE,
  S: complement(SPACE),
  ".": complement(LINE_TERMINATORS),
};
