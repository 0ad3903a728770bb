import fc from "fast-check";

// Characters chosen to hit every branch of the escaping and key ordering
// rules: controls, DEL, quotes, backslash, U+2028, the BMP above the
// surrogates (U+E000..U+FFFF), lone surrogates, astral characters.
const SPECIAL_UNITS = [
  '"',
  "\\",
  "/",
  "\u007f",
  "\u0080",
  "\u00e9",
  "\u2028",
  "\u2029",
  "\u0915",
  "\u093f",
  "\ud7ff",
  "\ud800",
  "\udbff",
  "\udc00",
  "\udfff",
  "\ue000",
  "\uff5e",
  "\ufeff",
  "\uffff",
  "\u{10000}",
  "\u{1f600}",
  "\u{1f44d}\u{1f3fd}",
  "\u{10ffff}",
];

const unit = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)) },
  { weight: 2, arbitrary: fc.constantFrom(...SPECIAL_UNITS) },
);

/** Strings over all of UTF-16, lone surrogates included. */
export const anyString = fc.string({ unit, maxLength: 12 });

// Keys drawn from a narrow alphabet collide on prefixes, which is where sort bugs live.
const keyUnit = fc.oneof(fc.constantFrom("a", "b", "A", "_", "0", "1", "\u007f", "\u00e9", ...SPECIAL_UNITS), unit);
export const anyKey = fc.string({ unit: keyUnit, maxLength: 5 });

const SPECIAL_NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.1,
  0.5,
  1e16,
  1e15,
  9999999999999998,
  1e-4,
  1e-5,
  9.999e-5,
  1e-7,
  1e-6,
  1.5e300,
  1e21,
  1e20,
  1e22,
  123456789012345680000,
  2 ** 53,
  -(2 ** 53),
  2 ** 53 - 1,
  2 ** 53 + 2,
  2 ** 63,
  5e-324,
  2.2250738585072014e-308,
  1.7976931348623157e308,
  -1.7976931348623157e308,
  Number.EPSILON,
  1 / 3,
  100.5,
  1234.5678,
];

export const anyNumber = fc.oneof(
  fc.maxSafeInteger(),
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: 1e-6, max: 1e22, noNaN: true }),
  fc
    .tuple(fc.integer({ min: 1, max: 99999 }), fc.integer({ min: -330, max: 300 }))
    .map(([m, e]) => Number(`${m}e${e}`)),
  fc.constantFrom(...SPECIAL_NUMBERS),
);

const leaf = fc.oneof(anyString, anyNumber, fc.boolean(), fc.constant(null));

/** JSON values a caller could build in JavaScript, all kinds of strings and numbers. */
export const anyJsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 5 }),
  object: fc.dictionary(anyKey, tie("value"), { maxKeys: 6 }),
})).value;

/** A chain of arrays and objects `depth` levels deep. */
export function nested(depth: number, leafValue: unknown = "x"): unknown {
  let v = leafValue;
  for (let d = 0; d < depth; d++) v = d % 2 === 0 ? [v] : { k: v };
  return v;
}
