import fc from "fast-check";

// JSON text as a sender might write it: any whitespace Python allows, every
// number spelling, every escape, duplicate keys, Python's NaN/Infinity.

const ws = fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\r"), maxLength: 2 });

const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });

const intLiteral = fc.oneof(
  fc.constantFrom("0", "-0", "1", "-1", "9007199254740991", "9007199254740993", "-9007199254740993"),
  fc
    .tuple(fc.boolean(), fc.integer({ min: 1, max: 9 }), digits(0, 40))
    .map(([neg, first, rest]) => `${neg ? "-" : ""}${first}${rest}`),
);

const floatLiteral = fc.oneof(
  fc.constantFrom(
    "1.0",
    "-0.0",
    "0.0",
    "1e5",
    "1E400",
    "-1e400",
    "1e-400",
    "-1e-400",
    "1.5e+300",
    "1e16",
    "1e-07",
    "0.1",
    "123456789012345680000.0",
    "1e0",
    "1E+2",
    "2.50",
    "0.000001",
    "9007199254740993.0",
    "1.7976931348623157e308",
    "1.7976931348623158e308",
    "4.9e-324",
    "2e-324",
  ),
  fc
    .tuple(
      intLiteral,
      fc.option(digits(1, 20)),
      fc.option(fc.tuple(fc.constantFrom("e", "E"), fc.constantFrom("", "+", "-"), digits(1, 4))),
    )
    .filter(([, frac, exp]) => frac !== null || exp !== null)
    .map(([int, frac, exp]) => int + (frac === null ? "" : "." + frac) + (exp === null ? "" : exp.join(""))),
  fc
    .double({ noNaN: true, noDefaultInfinity: true })
    .map((d) => String(d))
    .filter((s) => /[.e]/.test(s)),
);

const hex4 = (n: number, upper: boolean) => {
  const h = n.toString(16).padStart(4, "0");
  return upper ? h.toUpperCase() : h;
};

const stringPiece = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .integer({ min: 0x20, max: 0x7e })
      .filter((c) => c !== 0x22 && c !== 0x5c)
      .map((c) => String.fromCharCode(c)),
  },
  { weight: 2, arbitrary: fc.integer({ min: 0x7f, max: 0xffff }).map((c) => String.fromCharCode(c)) }, // raw, lone surrogates too
  { weight: 1, arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)) },
  { weight: 2, arbitrary: fc.constantFrom('\\"', "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t") },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.integer({ min: 0, max: 0xffff }), fc.boolean()).map(([c, up]) => "\\u" + hex4(c, up)),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.integer({ min: 0xd800, max: 0xdbff }), fc.integer({ min: 0xdc00, max: 0xdfff }), fc.boolean())
      .map(([h, l, up]) => "\\u" + hex4(h, up) + "\\u" + hex4(l, up)),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "\u007f",
      "\\u007f",
      "\\u0001",
      "\ud800",
      "\udc00",
      "\\ud800",
      "\\udc00",
      "\\uD83D",
      "\\uDE00",
      "\ud83d",
      "\ude00",
      "\uff5e",
      "\ue000",
      "é",
      "\\u00e9",
    ),
  },
);

const stringLiteral = fc.array(stringPiece, { maxLength: 6 }).map((p) => `"${p.join("")}"`);
// Few distinct keys, so objects often repeat one (Python keeps the last).
const keyLiteral = fc.oneof(
  fc.constantFrom(
    '"a"',
    '"\\u0061"',
    '"b"',
    '"\\ud83d\\ude00"',
    '"\ud83d\ude00"',
    '"\uff5e"',
    '"\\ud800"',
    '"\ud800"',
    '"\\udc00"',
  ),
  stringLiteral,
);

const literal = fc.constantFrom("true", "false", "null", "NaN", "Infinity", "-Infinity");

export const jsonText: fc.Arbitrary<string> = fc
  .letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      intLiteral,
      floatLiteral,
      stringLiteral,
      literal,
      tie("array"),
      tie("object"),
    ),
    array: fc
      .tuple(ws, fc.array(fc.tuple(ws, tie("value"), ws), { maxLength: 4 }))
      .map(([w, items]) => "[" + w + items.map((x) => x.join("")).join(",") + "]"),
    object: fc
      .tuple(ws, fc.array(fc.tuple(ws, keyLiteral, ws, ws, tie("value"), ws), { maxLength: 4 }))
      .map(
        ([w, members]) => "{" + w + members.map(([a, k, b, c, v, d]) => `${a}${k}${b}:${c}${v}${d}`).join(",") + "}",
      ),
  }))
  .value.chain((v) => fc.tuple(ws, fc.constant(v), ws).map((p) => p.join("")));

const noise = fc.constantFrom(...'{}[]",:\\ \t\n\r\u000b\u00a0-+.eE0123456789aflnrstuINa\ufeff');

/** JSON text with one random edit, mostly malformed, to compare what is rejected and where. */
export const mutatedJsonText: fc.Arbitrary<string> = fc
  .tuple(jsonText, fc.nat(), fc.constantFrom("delete", "insert", "replace", "truncate"), noise)
  .map(([text, at, op, ch]) => {
    const i = text.length === 0 ? 0 : at % text.length;
    switch (op) {
      case "delete":
        return text.slice(0, i) + text.slice(i + 1);
      case "insert":
        return text.slice(0, i) + ch + text.slice(i);
      case "replace":
        return text.slice(0, i) + ch + text.slice(i + 1);
      default:
        return text.slice(0, i);
    }
  });
