import { quoteString } from "./escape.js";
import { sortKeys } from "./keys.js";
import { formatNumber } from "./number.js";

interface Frame {
  readonly container: object;
  /** Sorted keys for an object, undefined for an array. */
  readonly keys: string[] | undefined;
  index: number;
  written: boolean;
}

// Below this depth a linear scan of the open containers is cheaper than a Set.
const SCAN_DEPTH = 32;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * The canonical body for a JSON value: keys sorted by code point at every
 * level, no whitespace, every non-ASCII character as a lowercase `\uXXXX`
 * escape. Byte-identical to Python's
 * `json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)`.
 *
 * Object properties whose value is `undefined` are left out, as
 * JSON.stringify does. Anything else JSON cannot carry (undefined in an
 * array, functions, symbols, bigints, NaN, ±Infinity, cycles, Dates, Maps
 * and other class instances) throws a TypeError naming its path, such as
 * `$.fees.pg_fee` or `$.items[2]`.
 *
 * @example
 * canonicalize({ b: 1, a: { d: "é", c: [1.5, null] } });
 * // '{"a":{"c":[1.5,null],"d":"\\u00e9"},"b":1}'
 */
export function canonicalize(value: unknown): string {
  // Iterative, so nesting depth is bounded by memory rather than the call stack.
  const stack: Frame[] = [];
  let ancestors: Set<object> | undefined;
  let out = "";
  let v = value;
  for (;;) {
    switch (typeof v) {
      case "string":
        out += quoteString(v);
        break;
      case "number": {
        const n = formatNumber(v);
        if (n === undefined) fail(stack, `${v} is not a JSON number`);
        out += n;
        break;
      }
      case "boolean":
        out += v ? "true" : "false";
        break;
      case "object": {
        if (v === null) {
          out += "null";
          break;
        }
        if (ancestors !== undefined) {
          if (ancestors.has(v)) fail(stack, "circular reference");
          ancestors.add(v);
        } else if (stack.length < SCAN_DEPTH) {
          for (let k = 0; k < stack.length; k++) {
            if (stack[k]!.container === v) fail(stack, "circular reference");
          }
        } else {
          ancestors = new Set(stack.map((f) => f.container));
          if (ancestors.has(v)) fail(stack, "circular reference");
          ancestors.add(v);
        }
        if (Array.isArray(v)) {
          out += "[";
          stack.push({ container: v, keys: undefined, index: -1, written: false });
        } else if (isPlainObject(v)) {
          out += "{";
          stack.push({ container: v, keys: sortKeys(Object.keys(v)), index: -1, written: false });
        } else {
          fail(stack, `${describeInstance(v)} is not a plain object or array; convert it first`);
        }
        break;
      }
      case "undefined":
        fail(stack, stack.length === 0 ? "undefined is not a JSON value" : "undefined (or a hole) inside an array");
      default:
        fail(stack, `a ${typeof v} is not a JSON value`);
    }

    // Find the next value to write, closing containers that are done.
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) return out;
      const keys = top.keys;
      if (keys === undefined) {
        const array = top.container as unknown[];
        if (++top.index < array.length) {
          v = array[top.index];
          if (top.index > 0) out += ",";
          break;
        }
        out += "]";
      } else {
        const object = top.container as Record<string, unknown>;
        let found = false;
        while (++top.index < keys.length) {
          v = object[keys[top.index]!];
          if (v !== undefined) {
            found = true;
            break;
          }
        }
        if (found) {
          out += (top.written ? "," : "") + quoteString(keys[top.index]!) + ":";
          top.written = true;
          break;
        }
        out += "}";
      }
      stack.pop();
      ancestors?.delete(top.container);
    }
  }
}

function isPlainObject(v: object): boolean {
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto === Object.prototype || proto === null) return true;
  // A plain object from another realm (vm context, iframe) has that realm's Object.prototype.
  return (
    typeof proto === "object" &&
    Object.getPrototypeOf(proto) === null &&
    (proto as { constructor?: { name?: unknown } }).constructor?.name === "Object"
  );
}

function describeInstance(v: object): string {
  const name = (v as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === "string" && name !== "" ? `an instance of ${name}` : "an object with a custom prototype";
}

function pathOf(stack: readonly Frame[]): string {
  let path = "$";
  for (const frame of stack) {
    if (frame.keys === undefined) path += `[${frame.index}]`;
    else {
      const key = frame.keys[frame.index]!;
      path += IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
    }
  }
  return path;
}

function fail(stack: readonly Frame[], reason: string): never {
  throw new TypeError(`Cannot canonicalize ${pathOf(stack)}: ${reason}`);
}
