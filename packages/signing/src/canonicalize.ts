import { MAX_NESTING_DEPTH, shortPath, TOO_DEEP } from "./depth.js";
import { quoteString } from "./escape.js";
import { sortByCodePoint } from "./keys.js";
import { formatNumber } from "./python-float.js";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const AT_OR_ABOVE_SURROGATES = /[\ud800-\uffff]/;
const INSERTION_SORT_MAX = 32;

/** A value that cannot be written; the path grows as the error unwinds, innermost segment first. */
class Unwritable {
  readonly inward: string[] = [];
  constructor(readonly reason: string) {}
}

/**
 * The canonical body for a JSON value: keys sorted by code point at every
 * level, no whitespace, every non-ASCII character as a lowercase `\uXXXX`
 * escape. Byte-identical to Python's
 * `json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)`.
 *
 * Integral numbers below 2^53 are written as integers (so -0 is `0`), other
 * numbers as Python floats (`1e+16`, `1e-07`). Object properties whose value
 * is `undefined` are left out, as JSON.stringify does. Anything else JSON
 * cannot carry (undefined in an array, functions, symbols, bigints, NaN,
 * ±Infinity, cycles, Dates, Maps and other class instances, nesting deeper
 * than MAX_NESTING_DEPTH) throws a TypeError naming its path, such as
 * `$.fees.pg_fee` or `$.items[2]` (a long path is shortened in the middle).
 *
 * @example
 * canonicalize({ b: 1, a: { d: "é", c: [1.5, null] } });
 * // '{"a":{"c":[1.5,null],"d":"\\u00e9"},"b":1}'
 */
export function canonicalize(value: unknown): string {
  try {
    return write(value, 0, []);
  } catch (e) {
    if (e instanceof Unwritable)
      throw new TypeError(`Cannot canonicalize ${shortPath(e.inward.reverse())}: ${e.reason}`);
    throw e;
  }
}

function write(v: unknown, depth: number, open: object[]): string {
  switch (typeof v) {
    case "string":
      return quoteString(v);
    case "number": {
      const n = formatNumber(v);
      if (n === undefined) throw new Unwritable(`${v} is not a JSON number`);
      return n;
    }
    case "boolean":
      return v ? "true" : "false";
    case "object":
      if (v === null) return "null";
      // `open` holds the containers enclosing v: seeing v there means a cycle.
      for (let i = 0; i < depth; i++) if (open[i] === v) throw new Unwritable("circular reference");
      if (depth === MAX_NESTING_DEPTH) throw new Unwritable(TOO_DEEP);
      open[depth] = v;
      if (Array.isArray(v)) return writeArray(v, depth, open);
      if (!isPlainObject(v)) throw new Unwritable(`${describe(v)} is not a plain object or array; convert it first`);
      return writeObject(v as Record<string, unknown>, depth, open, sortKeys(Object.keys(v)), false);
    case "undefined":
      throw new Unwritable(depth === 0 ? "undefined is not a JSON value" : "undefined (or a hole) inside an array");
    default:
      throw new Unwritable(`a ${typeof v} is not a JSON value`);
  }
}

function writeArray(v: unknown[], depth: number, open: object[]): string {
  let out = "[";
  for (let i = 0; i < v.length; i++) {
    try {
      out += (i === 0 ? "" : ",") + write(v[i], depth + 1, open);
    } catch (e) {
      throw within(e, `[${i}]`);
    }
  }
  return out + "]";
}

function writeObject(
  v: Record<string, unknown>,
  depth: number,
  open: object[],
  keys: string[],
  byCodePoint: boolean,
): string {
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const x = v[key];
    if (x === undefined) continue;
    const quoted = quoteKey(key);
    // UTF-16 order (Array#sort) differs from Python's code point order only
    // for keys holding units >= U+D800; such keys are always escaped.
    if (!byCodePoint && quoted.length !== key.length + 2 && AT_OR_ABOVE_SURROGATES.test(key)) {
      return writeObject(v, depth, open, sortByCodePoint(keys), true);
    }
    try {
      out += (out.length === 1 ? "" : ",") + quoted + ":" + write(x, depth + 1, open);
    } catch (e) {
      throw within(e, IDENTIFIER.test(key) ? "." + key : `[${JSON.stringify(key)}]`);
    }
  }
  return out + "}";
}

function within(e: unknown, segment: string): unknown {
  if (e instanceof Unwritable) e.inward.push(segment);
  return e;
}

function sortKeys(keys: string[]): string[] {
  if (keys.length > INSERTION_SORT_MAX) return keys.sort();
  // Objects in bodies are small; insertion sort beats Array#sort there.
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

// Bodies repeat the same few dozen property names, so their quoted forms are
// kept. Bounded: cleared when full, so odd key sets cannot grow it.
const quotedKeys = new Map<string, string>();

function quoteKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = quoteString(key);
    if (quotedKeys.size === 1024) quotedKeys.clear();
    quotedKeys.set(key, quoted);
  }
  return quoted;
}

function isPlainObject(v: object): boolean {
  const proto: unknown = Object.getPrototypeOf(v);
  // The last test accepts a plain object from another realm (vm context, iframe).
  return (
    proto === Object.prototype ||
    proto === null ||
    (Object.getPrototypeOf(proto) === null &&
      (proto as { constructor?: { name?: unknown } }).constructor?.name === "Object")
  );
}

function describe(v: object): string {
  const name = (v as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === "string" && name !== "" ? `an instance of ${name}` : "an object with a custom prototype";
}
