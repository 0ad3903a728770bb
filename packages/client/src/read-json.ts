// Response bodies read without V8's escaped-key bug: in Node 24 and 26, after JSON.parse('{"h":1,"\\\\":2}'),
// JSON.parse('{"h":1,"\\u7a3c":2}') yields the key "\\" (nodejs/node#63785, open). Records echo keys the caller
// chose (additional_info, identifiers), and a service that escapes non-ASCII writes them as \uXXXX, so a response
// could come back with a wrong key. Text without a backslash has no escaped key and takes the native parser;
// other text is read here, each key and string by JSON.parse on its own token, where the bug does not apply.

const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const WORD = /true|false|null/y;

/**
 * JSON.parse, except that object keys with escapes are read correctly. Throws SyntaxError on invalid JSON.
 *
 * @example
 * readJson('{"h":1,"\\u7a3c":2}'); // { h: 1, "稼": 2 }
 */
export function readJson(text: string): unknown {
  return text.includes("\\") ? readSlowly(text) : JSON.parse(text);
}

function readSlowly(text: string): unknown {
  let i = 0;
  const space = (): void => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const token = (re: RegExp): string => {
    re.lastIndex = i;
    const match = re.exec(text);
    if (match === null) throw new SyntaxError(`invalid JSON at position ${i}`);
    i = re.lastIndex;
    return match[0];
  };
  const expect = (char: string): void => {
    if (text[i++] !== char) throw new SyntaxError(`expected '${char}' at position ${i - 1}`);
  };
  const value = (depth: number): unknown => {
    if (depth > 512) throw new SyntaxError("JSON nested too deeply");
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
        space();
        expect(":");
        // defineProperty: a "__proto__" key is an own property, as JSON.parse makes it.
        Object.defineProperty(out, key, { value: value(depth + 1), enumerable: true, writable: true, configurable: true });
        space();
        if (text[i] === ",") i++;
        else return expect("}"), out;
      }
    }
    if (c === "[") {
      i++;
      const out: unknown[] = [];
      space();
      if (text[i] === "]") return i++, out;
      for (;;) {
        out.push(value(depth + 1));
        space();
        if (text[i] === ",") i++;
        else return expect("]"), out;
      }
    }
    if (c === '"') return JSON.parse(token(STRING));
    if (c === "t" || c === "f" || c === "n") return JSON.parse(token(WORD));
    return Number(token(NUMBER));
  };
  const result = value(0);
  space();
  if (i !== text.length) throw new SyntaxError(`unexpected text at position ${i}`);
  return result;
}
