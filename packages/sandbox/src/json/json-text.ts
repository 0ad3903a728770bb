// Reading JSON text that may come from anyone (request bodies) or that we stored ourselves (rows). V8's
// JSON.parse in Node 24 and 26 can misread an escaped object key after an earlier parse (nodejs/node#63785), so
// text with a backslash in it goes through the reader below; text without one cannot hit the bug and takes the
// native parser. The reader also bounds nesting: a body nested deeper than MAX_JSON_DEPTH is refused before
// anything else looks at it.

import { MAX_NESTING_DEPTH } from "@exchange-kit/signing";

/**
 * The deepest nesting of arrays and objects a request body may have (`{}` is depth 1): signing's limit, so
 * whatever the client can sign the sandbox reads, and nothing deeper. Well under the ~1000 levels at which the
 * service's Python `json` fails.
 */
export const MAX_JSON_DEPTH = MAX_NESTING_DEPTH;

/** The nesting depth of JSON text, counting brackets outside strings; stops counting past `limit`. */
export function jsonDepthExceeds(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const SPACE = /[ \t\n\r]*/y;

class Reader {
  i = 0;
  constructor(private readonly text: string) {}

  fail(): never {
    throw new SyntaxError(`Unexpected token in JSON at position ${this.i}`);
  }

  space(): void {
    SPACE.lastIndex = this.i;
    SPACE.exec(this.text);
    this.i = SPACE.lastIndex;
  }

  token(pattern: RegExp): string {
    pattern.lastIndex = this.i;
    const match = pattern.exec(this.text);
    if (!match) this.fail();
    this.i = pattern.lastIndex;
    return match[0];
  }

  /** A standalone string token: the native parser reads those correctly (the bug is in object keys). */
  string(): string {
    return JSON.parse(this.token(STRING)) as string;
  }

  value(depth: number): unknown {
    this.space();
    const c = this.text[this.i];
    if (c === '"') return this.string();
    if (c === "{" || c === "[") {
      if (depth >= MAX_JSON_DEPTH * 4) this.fail();
      return c === "{" ? this.object(depth + 1) : this.array(depth + 1);
    }
    for (const [literal, value] of [["true", true], ["false", false], ["null", null]] as const) {
      if (this.text.startsWith(literal, this.i)) {
        this.i += literal.length;
        return value;
      }
    }
    return Number(this.token(NUMBER));
  }

  object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.i++;
    this.space();
    if (this.text[this.i] === "}") {
      this.i++;
      return out;
    }
    for (;;) {
      this.space();
      const key = this.string();
      this.space();
      if (this.text[this.i] !== ":") this.fail();
      this.i++;
      const value = this.value(depth);
      // An own "__proto__" member, as JSON.parse makes it, not the prototype.
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      this.space();
      const next = this.text[this.i++];
      if (next === "}") return out;
      if (next !== ",") this.fail();
    }
  }

  array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.i++;
    this.space();
    if (this.text[this.i] === "]") {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth));
      this.space();
      const next = this.text[this.i++];
      if (next === "]") return out;
      if (next !== ",") this.fail();
    }
  }
}

/**
 * JSON.parse with the right object keys even where V8 misreads escaped ones (nodejs/node#63785).
 *
 * @example
 * parseJsonText('{"h":1,"\\u7a3c":2}'); // { h: 1, "稼": 2 }
 */
export function parseJsonText(text: string): unknown {
  if (!text.includes("\\")) return JSON.parse(text);
  const reader = new Reader(text);
  const value = reader.value(0);
  reader.space();
  if (reader.i !== text.length) reader.fail();
  return value;
}
