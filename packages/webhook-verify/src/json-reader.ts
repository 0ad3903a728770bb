// V8 in Node 24 and 26 can misread an escaped object key in JSON.parse
// (nodejs/node#63785, open): after JSON.parse('{"h":1,"\\\\":2}'),
// JSON.parse('{"h":1,"\\u7a3c":2}') yields the key "\\". A misread key in a
// verified event would be a wrong event, so text with any backslash is read
// here instead. Strings and numbers are still read by JSON.parse one token at
// a time, as values, where the bug does not apply; only the structure is ours.

const STRING = /"(?:[^"\\]|\\.)*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const WORD = /true|false|null/y;
const SPACE = /[ \t\n\r]*/y;

/**
 * `JSON.parse(text)`, immune to V8's escaped-key bug: the native parser for
 * text without a backslash (no escape, so no escaped key), this reader
 * otherwise. Malformed text throws a SyntaxError either way.
 */
export function parseJson(text: string): unknown {
  return text.includes("\\") ? readJson(text) : JSON.parse(text);
}

/** A recursive-descent JSON reader that decodes object keys as string values. */
export function readJson(text: string): unknown {
  let i = 0;
  const space = () => {
    SPACE.lastIndex = i;
    SPACE.test(text);
    i = SPACE.lastIndex;
  };
  const token = (re: RegExp): string => {
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) throw new SyntaxError(`unexpected text at ${i}`);
    i = re.lastIndex;
    return m[0];
  };
  const expect = (c: string) => {
    space();
    if (text[i++] !== c) throw new SyntaxError(`expected '${c}' at ${i - 1}`);
  };
  const value = (): unknown => {
    space();
    const c = text[i];
    if (c === "{") {
      i++;
      const out: Record<string, unknown> = {};
      space();
      if (text[i] === "}") return i++, out;
      for (;;) {
        space();
        const key = JSON.parse(token(STRING)) as string;
        expect(":");
        // defineProperty, not assignment: a "__proto__" key is an own property, as JSON.parse makes it.
        Object.defineProperty(out, key, { value: value(), enumerable: true, writable: true, configurable: true });
        space();
        const next = text[i++];
        if (next === "}") return out;
        if (next !== ",") throw new SyntaxError(`expected ',' or '}' at ${i - 1}`);
      }
    }
    if (c === "[") {
      i++;
      const out: unknown[] = [];
      space();
      if (text[i] === "]") return i++, out;
      for (;;) {
        out.push(value());
        space();
        const next = text[i++];
        if (next === "]") return out;
        if (next !== ",") throw new SyntaxError(`expected ',' or ']' at ${i - 1}`);
      }
    }
    if (c === '"') return JSON.parse(token(STRING));
    if (c === "t" || c === "f" || c === "n") return JSON.parse(token(WORD));
    return Number(token(NUMBER));
  };
  const result = value();
  space();
  if (i !== text.length) throw new SyntaxError(`unexpected text at ${i}`);
  return result;
}
