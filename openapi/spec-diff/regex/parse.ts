// Reads a JSON Schema `pattern` (ECMAScript, with the `u` flag as validators compile it) into a tree the
// comparison can walk: alternatives of sequences of terms, each term a set of characters, a group or an anchor,
// repeated min..max times. Only the regular part of the syntax is read; a lookaround, a backreference, `\b` or a
// property escape (`\p{L}`) make the pattern unsupported, and its changes are left to a person.
import { CLASS_ESCAPES, type CharSet, complement, charSet, single, union } from "./char-set.ts";

export type RegexNode =
  | { kind: "set"; set: CharSet }
  | { kind: "group"; alternatives: Alternatives }
  | { kind: "anchor"; anchor: "^" | "$" };

/** One position of a sequence: a node repeated `min` to `max` times (`max` may be Infinity). */
export interface Term {
  node: RegexNode;
  min: number;
  max: number;
}

export type Sequence = readonly Term[];
export type Alternatives = readonly Sequence[];

class Unsupported extends Error {}

interface Reader {
  text: string;
  i: number;
}

const peek = (r: Reader) => r.text[r.i];
const atEnd = (r: Reader) => r.i >= r.text.length;

/** The next character (a whole code point). */
function next(r: Reader): string {
  const char = String.fromCodePoint(r.text.codePointAt(r.i)!);
  r.i += char.length;
  return char;
}

function eat(r: Reader, char: string): boolean {
  if (peek(r) !== char) return false;
  r.i++;
  return true;
}

function expect(r: Reader, char: string): void {
  if (!eat(r, char)) throw new Unsupported(`expected ${char} at ${r.i}`);
}

function hex(r: Reader, length: number): number {
  const digits = r.text.slice(r.i, r.i + length);
  if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== length) throw new Unsupported("bad hex escape");
  r.i += length;
  return Number.parseInt(digits, 16);
}

const CONTROL_ESCAPES: Readonly<Record<string, number>> = { t: 9, n: 10, v: 11, f: 12, r: 13, "0": 0 };

/** The code point of a character escape whose letter `c` was just read (`\t`, `\x41`, `\u{1F600}`, `\.`). */
function charEscape(r: Reader, c: string): number {
  const control = CONTROL_ESCAPES[c];
  if (control !== undefined) return control;
  if (c === "x") return hex(r, 2);
  if (c === "u" && eat(r, "{")) {
    const end = r.text.indexOf("}", r.i);
    const value = Number.parseInt(r.text.slice(r.i, end), 16);
    r.i = end + 1;
    return value;
  }
  if (c === "u") return hex(r, 4);
  if (/[a-zA-Z0-9]/.test(c)) throw new Unsupported(`\\${c}`); // \b, \B, \1, \k<..>, \p{..}, \c..
  return c.codePointAt(0)!;
}

/** After a `\`: a class escape's set or one character. */
function escaped(r: Reader, inClass: boolean): CharSet {
  const c = next(r);
  const set = CLASS_ESCAPES[c];
  if (set && c !== ".") return set;
  if (inClass && c === "b") return single("\b");
  if (inClass && c === "-") return single("-");
  const code = charEscape(r, c);
  return charSet([[code, code]]);
}

/** One member of a class: a single character (`[low, low]`) or a class escape. */
function classAtom(r: Reader): CharSet {
  return eat(r, "\\") ? escaped(r, true) : single(next(r));
}

const singleCode = (set: CharSet): number | undefined =>
  set.length === 1 && set[0]![0] === set[0]![1] ? set[0]![0] : undefined;

/** `[...]` after its `[`. */
function characterClass(r: Reader): CharSet {
  const negated = eat(r, "^");
  const members: CharSet[] = [];
  while (!atEnd(r) && peek(r) !== "]") {
    const first = classAtom(r);
    const low = singleCode(first);
    if (low !== undefined && peek(r) === "-" && r.text[r.i + 1] !== "]" && r.i + 1 < r.text.length) {
      r.i++;
      const high = singleCode(classAtom(r));
      if (high === undefined) throw new Unsupported("a class escape in a range");
      members.push(charSet([[low, high]]));
    } else members.push(first);
  }
  expect(r, "]");
  const set = union(...members);
  return negated ? complement(set) : set;
}

/** `(...)` after its `(`: capturing, non-capturing and named groups match the same strings. */
function group(r: Reader): RegexNode {
  if (eat(r, "?")) {
    if (eat(r, "<") && peek(r) !== "=" && peek(r) !== "!") r.i = r.text.indexOf(">", r.i) + 1;
    else if (!eat(r, ":")) throw new Unsupported("a lookaround");
  }
  const alternatives = disjunction(r);
  expect(r, ")");
  return { kind: "group", alternatives };
}

function atom(r: Reader): RegexNode {
  const c = next(r);
  if (c === "^" || c === "$") return { kind: "anchor", anchor: c };
  if (c === ".") return { kind: "set", set: CLASS_ESCAPES["."]! };
  if (c === "\\") return { kind: "set", set: escaped(r, false) };
  if (c === "[") return { kind: "set", set: characterClass(r) };
  if (c === "(") return group(r);
  if ("*+?{}])|".includes(c)) throw new Unsupported(`${c} where a character was expected`);
  return { kind: "set", set: single(c) };
}

/** The repetition after an atom: `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` (lazy or not), or exactly once. */
function quantifier(r: Reader): [number, number] {
  const bounds = /^(?:\{(\d+)(,(\d*))?\}|[*+?])/.exec(r.text.slice(r.i));
  if (!bounds) return [1, 1];
  r.i += bounds[0].length;
  eat(r, "?"); // lazy: the same strings match
  if (bounds[0] === "*") return [0, Infinity];
  if (bounds[0] === "+") return [1, Infinity];
  if (bounds[0] === "?") return [0, 1];
  const min = Number(bounds[1]);
  if (bounds[2] === undefined) return [min, min];
  return [min, bounds[3] ? Number(bounds[3]) : Infinity];
}

function sequence(r: Reader): Term[] {
  const terms: Term[] = [];
  while (!atEnd(r) && peek(r) !== "|" && peek(r) !== ")") {
    const node = atom(r);
    const [min, max] = quantifier(r);
    terms.push({ node, min, max });
  }
  return terms;
}

function disjunction(r: Reader): Sequence[] {
  const alternatives = [sequence(r)];
  while (eat(r, "|")) alternatives.push(sequence(r));
  return alternatives;
}

/**
 * The tree of a pattern, or undefined when it is not a valid pattern or uses syntax beyond regular expressions.
 *
 * @example
 * parsePattern("^(USD|EUR)$"); // one alternative: ^, a group of two sequences, $
 */
export function parsePattern(text: string): Alternatives | undefined {
  try {
    new RegExp(text, "u");
    const r: Reader = { text, i: 0 };
    const alternatives = disjunction(r);
    return atEnd(r) ? alternatives : undefined;
  } catch {
    return undefined;
  }
}
