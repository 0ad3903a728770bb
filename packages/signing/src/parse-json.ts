// V8 in Node 24 and 26 can misread an escaped object key in JSON.parse (nodejs/node#63785, open): after
// JSON.parse('{"h":1,"\\\\":2}'), JSON.parse('{"h":1,"\\u7a3c":2}') yields the key "\\". A body whose keys are
// misread is a different body (a wrong stored member, a wrong event, a canonical form that no longer matches
// what was signed). Text without a backslash has no escaped key and takes the native parser; other text is read
// here, each key and string by JSON.parse on its own token, as a value, where the bug does not apply.

const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const WORD = /true|false|null/y;
const SPACE = /[ \t\n\r]*/y;
// The reader recurses; this keeps it far from the JavaScript stack limit (4x what may be signed).
const MAX_READ_DEPTH = 2048;

/**
 * `JSON.parse(text)`, with object keys that hold escapes read correctly on every runtime (V8's
 * nodejs/node#63785). The same values as JSON.parse, "__proto__" included as an own member; malformed text
 * throws a SyntaxError. Text with a backslash nested deeper than 2048 levels is refused with a SyntaxError.
 *
 * @example
 * parseJson('{"h":1,"\\u7a3c":2}'); // { h: 1, "稼": 2 }
 */
export function parseJson(text: string): unknown {
  return text.includes("\\") ? readEscaped(text) : JSON.parse(text);
}

// The text being read and the offset reached: set by readEscaped for the functions below (never reentered).
let text = "";
let i = 0;

function readEscaped(json: string): unknown {
  text = json;
  i = 0;
  try {
    const result = value(0);
    space();
    if (i !== text.length) throw new SyntaxError(`Unexpected text after JSON at position ${i}`);
    return result;
  } finally {
    text = ""; // not kept alive until the next call
  }
}

function space(): void {
  SPACE.lastIndex = i;
  SPACE.test(text);
  i = SPACE.lastIndex;
}

function token(re: RegExp): string {
  re.lastIndex = i;
  const match = re.exec(text);
  if (match === null) throw new SyntaxError(`Unexpected token in JSON at position ${i}`);
  i = re.lastIndex;
  return match[0];
}

function expect(char: string): void {
  if (text[i++] !== char) throw new SyntaxError(`Expected '${char}' in JSON at position ${i - 1}`);
}

function value(depth: number): unknown {
  space();
  const c = text[i];
  if (c === "{" || c === "[") {
    if (depth === MAX_READ_DEPTH) throw new SyntaxError(`JSON nested deeper than ${MAX_READ_DEPTH} levels`);
    i++;
    space();
    return c === "{" ? object(depth) : array(depth);
  }
  if (c === '"') return JSON.parse(token(STRING));
  if (c === "t" || c === "f" || c === "n") return JSON.parse(token(WORD));
  return Number(token(NUMBER));
}

/** The members of an object whose `{` and the space after it are read. */
function object(depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (text[i] === "}") return (i++, out);
  for (;;) {
    space();
    const key = JSON.parse(token(STRING)) as string;
    space();
    expect(":");
    // defineProperty, not assignment: a "__proto__" key is an own member, as JSON.parse makes it.
    Object.defineProperty(out, key, {
      value: value(depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    space();
    if (text[i] === ",") i++;
    else return (expect("}"), out);
  }
}

/** The items of an array whose `[` and the space after it are read. */
function array(depth: number): unknown[] {
  const out: unknown[] = [];
  if (text[i] === "]") return (i++, out);
  for (;;) {
    out.push(value(depth + 1));
    space();
    if (text[i] === ",") i++;
    else return (expect("]"), out);
  }
}
