// Exact decimal arithmetic for money, on BigInt: no floating point anywhere between the decimal string a caller
// sends and the decimal string the sandbox answers. A Decimal is `units × 10^-scale` ("100.50" is 10050n at scale
// 2). Addition, subtraction, multiplication and comparison are exact; the only operations that can lose digits,
// `div` and `round`, take an explicit rounding rule, and `format` refuses to drop a digit unless it is given one.
//
// Rounding rules (for positive and negative values alike):
//   "half-up" — to the nearest, a tie away from zero (1.005 → 1.01, -1.005 → -1.01): fees, taxes, rates;
//   "down"    — toward zero (1.009 → 1.00): what the customer receives, so nobody is paid more than computed;
//   "up"      — away from zero (1.001 → 1.01): what the customer must send to cover an amount.

export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

export type Rounding = "half-up" | "down" | "up";

/** The spec's DecimalString: an optional minus, digits, and optionally a point followed by digits. */
export const DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/;

export function isDecimalString(value: unknown): value is string {
  return typeof value === "string" && DECIMAL_PATTERN.test(value);
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** Parses a DecimalString; its scale is the number of decimals as written ("4001.00" has scale 2). */
export function parse(text: string): Decimal {
  if (!isDecimalString(text)) throw new TypeError(`Not a decimal string: ${JSON.stringify(text)}`);
  const negative = text.startsWith("-");
  const [whole, fraction = ""] = (negative ? text.slice(1) : text).split(".");
  const units = BigInt(whole! + fraction);
  return { units: negative ? -units : units, scale: fraction.length };
}

/** The same value at a larger scale (exact: only zeros are added). */
function widen(a: Decimal, scale: number): bigint {
  return a.units * pow10(scale - a.scale);
}

export function compare(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const x = widen(a, scale);
  const y = widen(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

export const eq = (a: Decimal, b: Decimal) => compare(a, b) === 0;
export const lt = (a: Decimal, b: Decimal) => compare(a, b) < 0;
export const lte = (a: Decimal, b: Decimal) => compare(a, b) <= 0;
export const gt = (a: Decimal, b: Decimal) => compare(a, b) > 0;
export const gte = (a: Decimal, b: Decimal) => compare(a, b) >= 0;
export const min = (a: Decimal, b: Decimal) => (lte(a, b) ? a : b);
export const max = (a: Decimal, b: Decimal) => (gte(a, b) ? a : b);

export function sign(a: Decimal): -1 | 0 | 1 {
  return a.units < 0n ? -1 : a.units > 0n ? 1 : 0;
}

export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: widen(a, scale) + widen(b, scale), scale };
}

export function sub(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: widen(a, scale) - widen(b, scale), scale };
}

export function sum(values: readonly Decimal[]): Decimal {
  return values.reduce(add, ZERO);
}

/** Exact product (the scales add up): an amount times a rate or a percentage. */
export function mul(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** `numerator / denominator` (integers), rounded by `rounding`. */
function divideIntegers(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  if (denominator === 0n) throw new RangeError("Division by zero");
  if (denominator < 0n) return divideIntegers(-numerator, -denominator, rounding);
  const quotient = numerator / denominator; // truncates toward zero
  const remainder = numerator % denominator; // same sign as the numerator
  if (remainder === 0n || rounding === "down") return quotient;
  const away = numerator < 0n ? quotient - 1n : quotient + 1n;
  if (rounding === "up") return away;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  return twice >= denominator ? away : quotient;
}

/** `a / b` at `scale` decimals, rounded by `rounding`. */
export function div(a: Decimal, b: Decimal, scale: number, rounding: Rounding): Decimal {
  // a/b = (a.units / b.units) × 10^(b.scale - a.scale); at `scale` decimals the integer to round is
  // a.units × 10^(scale + b.scale - a.scale) / b.units.
  const shift = scale + b.scale - a.scale;
  const numerator = shift >= 0 ? a.units * pow10(shift) : a.units;
  const denominator = shift >= 0 ? b.units : b.units * pow10(-shift);
  return { units: divideIntegers(numerator, denominator, rounding), scale };
}

/** The value at exactly `scale` decimals: padded with zeros, or rounded by `rounding` when digits are dropped. */
export function round(a: Decimal, scale: number, rounding: Rounding): Decimal {
  if (scale >= a.scale) return { units: widen(a, scale), scale };
  return { units: divideIntegers(a.units, pow10(a.scale - scale), rounding), scale };
}

/** True when the value is written exactly with `scale` decimals ("100.500" fits 2, "100.005" does not). */
export function fitsScale(a: Decimal, scale: number): boolean {
  return scale >= a.scale || a.units % pow10(a.scale - scale) === 0n;
}

/**
 * The decimal string with exactly `scale` decimals (default: the value's own). Without `rounding`, a value that
 * does not fit the scale throws: dropping a digit of money is always a decision made at the call site.
 */
export function format(a: Decimal, scale: number = a.scale, rounding?: Rounding): string {
  if (!fitsScale(a, scale) && rounding === undefined) {
    throw new RangeError(`${format(a)} does not fit ${scale} decimals; pass a rounding rule`);
  }
  const { units } = round(a, scale, rounding ?? "down");
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${units < 0n ? "-" : ""}${whole}${scale > 0 ? `.${fraction}` : ""}`;
}

/**
 * The nearest JavaScript number, for the only members the spec types as JSON numbers (payin fees). Call it last,
 * on a value already rounded to its final decimals; never compute with the result.
 */
export function toNumber(a: Decimal): number {
  return Number(format(a));
}

/** A decimal from a string constant or an integer. */
export function dec(value: string | bigint | number): Decimal {
  if (typeof value === "string") return parse(value);
  if (typeof value === "number" && !Number.isSafeInteger(value)) throw new RangeError(`Not a safe integer: ${value}`);
  return { units: BigInt(value), scale: 0 };
}

export const ZERO: Decimal = { units: 0n, scale: 0 };
export const ONE: Decimal = { units: 1n, scale: 0 };

/** One unit of the last decimal place at `scale`: 0.01 at scale 2. */
export function ulp(scale: number): Decimal {
  return { units: 1n, scale };
}
