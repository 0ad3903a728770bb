import { quoteString } from "./escape.js";
import { codePointOrderKey } from "./keys.js";
import { pythonFloatRepr } from "./number.js";

// The grammar, the error messages and the error offsets follow CPython's
// json.loads (the C scanner), so that text the server accepts is accepted
// here and produces the same canonical bytes.

interface ObjectFrame {
  readonly entries: Map<string, string>; // order key -> "key":value
  key: string; // quoted key waiting for its value
  orderKey: string;
}
type Frame = ObjectFrame | string[];

const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const AT_OR_ABOVE_SURROGATES = /[\ud800-\uffff]/;
const SHORT_ESCAPES: Record<string, string> = {
  '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t",
};

/**
 * The canonical body for JSON text, without going through JavaScript
 * numbers: `canonicalizeText(text)` equals Python's
 * `json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))`
 * for every text Python accepts. Integers keep all their digits, float
 * literals print as Python floats (`1.0`, `-0.0`, `1e+16`), the last of
 * duplicate keys wins, and Python's `NaN`/`Infinity`/`-Infinity` literals
 * are accepted. Malformed text throws a SyntaxError worded like Python's,
 * ending in `(char N)` with N the offset in UTF-16 code units.
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
  let v: string;
  for (;;) {
    // Read one value at i, or open a container and go read its first value.
    value: {
      const c = text.charCodeAt(i);
      if (c === 0x22 /* " */) {
        const end = scanString(text, i);
        v = quoteString(decodeString(text, i, end));
        i = end;
        break value;
      }
      if (c === 0x7b /* { */) {
        i = skipSpace(text, i + 1);
        if (text.charCodeAt(i) === 0x7d) {
          v = "{}";
          i++;
          break value;
        }
        const frame: ObjectFrame = { entries: new Map(), key: "", orderKey: "" };
        stack.push(frame);
        i = readKey(text, i, frame);
        continue;
      }
      if (c === 0x5b /* [ */) {
        i = skipSpace(text, i + 1);
        if (text.charCodeAt(i) === 0x5d) {
          v = "[]";
          i++;
          break value;
        }
        stack.push([]);
        continue;
      }
      const literal = matchLiteral(text, i, c);
      if (literal !== undefined) {
        v = literal; // Python prints its NaN/Infinity extensions back as it reads them
        i += literal.length;
        break value;
      }
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (m === null) fail(text, "Expecting value", i);
      v = numberValue(m[0], m[1] !== undefined || m[2] !== undefined);
      i = NUMBER.lastIndex;
    }

    // Hand the value to its container; close containers that end here.
    for (;;) {
      const top = stack[stack.length - 1];
      i = skipSpace(text, i);
      if (top === undefined) {
        if (i !== text.length) fail(text, "Extra data", i);
        return v;
      }
      const c = text.charCodeAt(i);
      if (Array.isArray(top)) {
        top.push(v);
        if (c === 0x5d /* ] */) {
          v = "[" + top.join(",") + "]";
        } else if (c === 0x2c /* , */) {
          i = skipSpace(text, i + 1);
          break;
        } else fail(text, "Expecting ',' delimiter", i);
      } else {
        top.entries.set(top.orderKey, top.key + ":" + v); // a later duplicate replaces, as in a dict
        if (c === 0x7d /* } */) {
          v = closeObject(top.entries);
        } else if (c === 0x2c) {
          i = readKey(text, skipSpace(text, i + 1), top);
          break;
        } else fail(text, "Expecting ',' delimiter", i);
      }
      stack.pop();
      i++;
    }
  }
}

function closeObject(entries: Map<string, string>): string {
  const order = [...entries.keys()].sort();
  let out = "{";
  for (let k = 0; k < order.length; k++) out += (k === 0 ? "" : ",") + entries.get(order[k]!)!;
  return out + "}";
}

/** Reads `"key" :` at i (whitespace after it skipped) into the frame. */
function readKey(text: string, i: number, frame: ObjectFrame): number {
  if (text.charCodeAt(i) !== 0x22) fail(text, "Expecting property name enclosed in double quotes", i);
  const end = scanString(text, i);
  const key = decodeString(text, i, end);
  frame.key = quoteString(key);
  // Python compares keys by code point; see keys.ts for why UTF-16 order is not enough.
  frame.orderKey = AT_OR_ABOVE_SURROGATES.test(key) ? codePointOrderKey(pythonCodePoints(text, i, end)) : key;
  i = skipSpace(text, end);
  if (text.charCodeAt(i) !== 0x3a /* : */) fail(text, "Expecting ':' delimiter", i);
  return skipSpace(text, i + 1);
}

function matchLiteral(text: string, i: number, c: number): string | undefined {
  let word: string;
  switch (c) {
    case 0x6e: word = "null"; break;
    case 0x74: word = "true"; break;
    case 0x66: word = "false"; break;
    case 0x4e: word = "NaN"; break;
    case 0x49: word = "Infinity"; break;
    case 0x2d: word = "-Infinity"; break;
    default: return undefined;
  }
  return text.startsWith(word, i) ? word : undefined;
}

function numberValue(literal: string, isFloat: boolean): string {
  if (!isFloat) return literal === "-0" ? "0" : literal; // Python ints keep every digit
  const n = Number(literal); // correctly rounded, like Python's float()
  if (n === Infinity) return "Infinity";
  if (n === -Infinity) return "-Infinity";
  return pythonFloatRepr(n);
}

function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

// Set by scanString: whether the literal it just scanned holds an escape.
let scannedEscape = false;

/** Validates the string literal opening at `start`; returns the offset after its closing quote. */
function scanString(text: string, start: number): number {
  let j = start + 1;
  scannedEscape = false;
  for (;;) {
    PLAIN_RUN.lastIndex = j;
    PLAIN_RUN.test(text);
    j = PLAIN_RUN.lastIndex;
    const c = text.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c !== 0x5c /* \ */) {
      if (j >= text.length) fail(text, "Unterminated string starting at", start);
      fail(text, "Invalid control character at", j);
    }
    if (j + 1 >= text.length) fail(text, "Unterminated string starting at", start);
    scannedEscape = true;
    if (text[j + 1] !== "u") {
      if (SHORT_ESCAPES[text[j + 1]!] === undefined) fail(text, "Invalid \\escape", j);
      j += 2;
      continue;
    }
    if (j + 6 >= text.length || hex4(text, j + 2) < 0) fail(text, "Invalid \\uXXXX escape", j + 1);
    const unit = hex4(text, j + 2);
    j += 6;
    // Python joins an escaped high surrogate with an escaped low one that follows.
    if (unit >= 0xd800 && unit <= 0xdbff && j + 6 < text.length && text[j] === "\\" && text[j + 1] === "u") {
      const low = hex4(text, j + 2);
      if (low < 0) fail(text, "Invalid \\uXXXX escape", j + 1);
      if (low >= 0xdc00 && low <= 0xdfff) j += 6;
    }
  }
}

/** The value of a string literal already validated by scanString. */
function decodeString(text: string, start: number, end: number): string {
  const last = end - 1;
  if (!scannedEscape) return text.slice(start + 1, last);
  let out = "";
  let run = start + 1;
  for (let j = run; j < last; ) {
    if (text.charCodeAt(j) !== 0x5c) {
      j++;
      continue;
    }
    out += text.slice(run, j);
    if (text[j + 1] !== "u") {
      out += SHORT_ESCAPES[text[j + 1]!]!;
      j += 2;
    } else {
      out += String.fromCharCode(hex4(text, j + 2));
      j += 6;
    }
    run = j;
  }
  return out + text.slice(run, last);
}

/**
 * Code points of a key as Python holds them. This differs from the
 * JavaScript string only when a raw surrogate sits next to an escaped one:
 * JavaScript sees a pair, Python two lone surrogates.
 */
function* pythonCodePoints(text: string, start: number, end: number): Generator<number> {
  const last = end - 1;
  for (let j = start + 1; j < last; ) {
    if (text.charCodeAt(j) !== 0x5c) {
      const cp = text.codePointAt(j)!;
      j += cp > 0xffff ? 2 : 1;
      yield cp;
    } else if (text[j + 1] !== "u") {
      yield SHORT_ESCAPES[text[j + 1]!]!.charCodeAt(0);
      j += 2;
    } else {
      const unit = hex4(text, j + 2);
      j += 6;
      if (unit >= 0xd800 && unit <= 0xdbff && text[j] === "\\" && text[j + 1] === "u") {
        const low = hex4(text, j + 2);
        if (low >= 0xdc00 && low <= 0xdfff) {
          j += 6;
          yield 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
          continue;
        }
      }
      yield unit;
    }
  }
}

function hex4(text: string, at: number): number {
  let n = 0;
  for (let k = at; k < at + 4; k++) {
    const c = text.charCodeAt(k);
    const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x57 : -1;
    if (d < 0) return -1;
    n = n * 16 + d;
  }
  return n;
}

function fail(text: string, message: string, offset: number): never {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  throw new SyntaxError(`${message}: line ${line} column ${column} (char ${offset})`);
}
