import { MAX_NESTING_DEPTH, TOO_DEEP } from "./depth.js";
import { quoteString } from "./escape.js";
import { codePointOrderKey } from "./keys.js";
import { pythonFloatRepr } from "./python-float.js";

// The grammar, the error messages and the error offsets follow CPython's
// json.loads (its C scanner), so that text the server accepts is accepted
// here and gives the same canonical bytes, and text it rejects is rejected.

interface ObjectFrame {
  readonly entries: Map<string, string>; // order key -> "key":value; a later duplicate replaces
  key: string; // quoted key waiting for its value
  order: string;
}
type Frame = ObjectFrame | string[];

const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const AT_OR_ABOVE_SURROGATES = /[\ud800-\uffff]/;
const SHORT_ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
// Python's json reads these literals; its json.dumps writes NaN and Infinity back the same way.
const LITERALS: Record<string, string> = {
  n: "null",
  t: "true",
  f: "false",
  N: "NaN",
  I: "Infinity",
  "-": "-Infinity",
};

/**
 * The canonical body for JSON text, without going through JavaScript
 * numbers: `canonicalizeText(text)` equals Python's
 * `json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))`
 * for every text Python accepts. Integers keep all their digits, float
 * literals print as Python floats (`1.0`, `-0.0`, `1e+16`), the last of
 * duplicate keys wins, and Python's `NaN`/`Infinity`/`-Infinity` literals
 * are accepted. Malformed text throws a SyntaxError worded like Python's,
 * ending in `(char N)` with N the offset in UTF-16 code units; so does
 * nesting deeper than MAX_NESTING_DEPTH (512), which Python could not read.
 *
 * @example
 * canonicalizeText('{ "amount": 12345678901234567890, "rate": 1.0 }');
 * // '{"amount":12345678901234567890,"rate":1.0}'
 */
export function canonicalizeText(text: string): string {
  if (typeof text !== "string") throw new TypeError("canonicalizeText expects JSON text (a string)");
  if (text.charCodeAt(0) === 0xfeff) fail(text, "Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
  const stack: Frame[] = [];
  let i = skipSpace(text, 0);
  for (;;) {
    // Read the value at i into v, or open a container and read its first value. (Strings and handing each value
    // to its container stay in this loop, the hot path; the rest is in the functions it calls.)
    const c = text[i];
    let v: string | undefined;
    if (c === '"') v = quoteString(readString(text, i));
    else if (c === "{" || c === "[") v = openContainer(text, i, c, stack);
    else v = readScalar(text, i);
    i = after;
    if (v === undefined) continue;

    // Hand v to its container; close the containers that end here.
    for (;;) {
      i = skipSpace(text, i);
      const top = stack[stack.length - 1];
      if (top === undefined) {
        if (i !== text.length) fail(text, "Extra data", i);
        return v;
      }
      const isArray = Array.isArray(top);
      if (isArray) top.push(v);
      else top.entries.set(top.order, top.key + ":" + v);
      if (text[i] === ",") {
        i = skipSpace(text, i + 1);
        if (!isArray) i = readKey(text, i, top);
        break;
      }
      v = closeContainer(text, i, top);
      stack.pop();
      i++;
    }
  }
}

/** A literal (null, true, false, NaN, Infinity, -Infinity) or a number at i, `after` set past it. */
function readScalar(text: string, i: number): string {
  const literal = LITERALS[text[i]!];
  if (literal !== undefined && text.startsWith(literal, i)) {
    after = i + literal.length;
    return literal;
  }
  NUMBER.lastIndex = i;
  const m = NUMBER.exec(text) ?? fail(text, "Expecting value", i);
  after = NUMBER.lastIndex;
  return numberValue(m[0], m[1] !== undefined || m[2] !== undefined);
}

/**
 * The container opening at i: an empty one is a value, `after` set past it; otherwise its frame is pushed and
 * undefined returned, `after` set where its first value starts.
 */
function openContainer(text: string, i: number, c: "{" | "[", stack: Frame[]): string | undefined {
  // Counted as canonicalize counts: every container, an empty one too.
  if (stack.length === MAX_NESTING_DEPTH) fail(text, `Too deep: ${TOO_DEEP}`, i);
  i = skipSpace(text, i + 1);
  if (text[i] === (c === "{" ? "}" : "]")) {
    after = i + 1;
    return c === "{" ? "{}" : "[]";
  }
  if (c === "[") {
    stack.push([]);
    after = i;
    return undefined;
  }
  const frame: ObjectFrame = { entries: new Map(), key: "", order: "" };
  stack.push(frame);
  after = readKey(text, i, frame);
  return undefined;
}

/** The canonical text of the container `top`, which must end at i (after a value, where no `,` is). */
function closeContainer(text: string, i: number, top: Frame): string {
  if (Array.isArray(top)) {
    if (text[i] !== "]") fail(text, "Expecting ',' delimiter", i);
    return "[" + top.join(",") + "]";
  }
  if (text[i] !== "}") fail(text, "Expecting ',' delimiter", i);
  return closeObject(top.entries);
}

function closeObject(entries: Map<string, string>): string {
  const order = [...entries.keys()].sort();
  let out = "{";
  for (let k = 0; k < order.length; k++) out += (k === 0 ? "" : ",") + entries.get(order[k]!)!;
  return out + "}";
}

/** Reads `"key" :` at i, and the whitespace after it, into the frame. */
function readKey(text: string, i: number, frame: ObjectFrame): number {
  if (text[i] !== '"') fail(text, "Expecting property name enclosed in double quotes", i);
  const key = readString(text, i);
  frame.key = quoteString(key);
  // Python orders keys by code point; see keys.ts for why UTF-16 order is not enough.
  frame.order = AT_OR_ABOVE_SURROGATES.test(key) ? codePointOrderKey(pythonCodePoints(text, i, after)) : key;
  i = skipSpace(text, after);
  if (text[i] !== ":") fail(text, "Expecting ':' delimiter", i);
  return skipSpace(text, i + 1);
}

function numberValue(literal: string, isFloat: boolean): string {
  if (!isFloat) return literal === "-0" ? "0" : literal; // Python ints keep every digit
  const n = Number(literal); // correctly rounded, as Python's float() is
  return n === Infinity ? "Infinity" : n === -Infinity ? "-Infinity" : pythonFloatRepr(n);
}

function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text[i];
    if (c !== " " && c !== "\n" && c !== "\r" && c !== "\t") return i;
    i++;
  }
}

// Set by the readers (readString, readScalar, openContainer): the offset where reading goes on.
let after = 0;

/** Reads the string literal opening at `start` (a `"`); sets `after`. */
function readString(text: string, start: number): string {
  let out = "";
  let j = start + 1;
  for (;;) {
    PLAIN_RUN.lastIndex = j;
    PLAIN_RUN.test(text);
    out += text.slice(j, PLAIN_RUN.lastIndex);
    j = PLAIN_RUN.lastIndex;
    const c = text[j];
    if (c === '"') {
      after = j + 1;
      return out;
    }
    if (c !== "\\" || j + 1 === text.length) failInString(text, start, j);
    out += unescapeAt(text, j);
    j += text[j + 1] === "u" ? 6 : 2;
  }
}

/** Python's error for the string opening at `start` that stops at j: its end, or a raw control character. */
function failInString(text: string, start: number, j: number): never {
  const c = text[j];
  if (c === undefined || c === "\\") fail(text, "Unterminated string starting at", start);
  fail(text, "Invalid control character at", j);
}

/** What the escape at j (a backslash, not the last character) stands for; it spans 2 characters, or 6 for `\u`. */
function unescapeAt(text: string, j: number): string {
  if (text[j + 1] !== "u") return SHORT_ESCAPES[text[j + 1]!] ?? fail(text, "Invalid \\escape", j);
  // Python wants four hex digits and at least one character after them.
  const unit = j + 6 < text.length ? hex4(text, j + 2) : -1;
  if (unit < 0) fail(text, "Invalid \\uXXXX escape", j + 1);
  // An escaped high surrogate followed by an escape: Python checks that one's digits right away.
  const next = j + 6;
  if (unit >= 0xd800 && unit <= 0xdbff && next + 6 < text.length && text[next] === "\\" && text[next + 1] === "u") {
    if (hex4(text, next + 2) < 0) fail(text, "Invalid \\uXXXX escape", next + 1);
  }
  return String.fromCharCode(unit);
}

/**
 * Code points of a key as Python holds them. They differ from the
 * JavaScript string's only where a raw surrogate sits next to an escaped
 * one: JavaScript sees a pair, Python two lone surrogates.
 */
function* pythonCodePoints(text: string, start: number, end: number): Generator<number> {
  for (let j = start + 1; j < end - 1; ) {
    if (text[j] !== "\\") {
      const cp = text.codePointAt(j)!;
      j += cp > 0xffff ? 2 : 1;
      yield cp;
    } else if (text[j + 1] !== "u") {
      yield SHORT_ESCAPES[text[j + 1]!]!.charCodeAt(0);
      j += 2;
    } else {
      const unit = hex4(text, j + 2);
      const low = text[j + 6] === "\\" && text[j + 7] === "u" ? hex4(text, j + 8) : -1;
      // Python joins an escaped high surrogate with an escaped low one right after it.
      const pair = unit >= 0xd800 && unit <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
      yield pair ? 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00) : unit;
      j += pair ? 12 : 6;
    }
  }
}

function hex4(text: string, at: number): number {
  const digits = text.slice(at, at + 4);
  return /^[\da-fA-F]{4}$/.test(digits) ? parseInt(digits, 16) : -1;
}

function fail(text: string, message: string, offset: number): never {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  throw new SyntaxError(`${message}: line ${line} column ${column} (char ${offset})`);
}
