/**
 * Python's `repr(float)` for a finite double. Both languages print the
 * shortest digit string that round-trips, so the digits come from
 * Number#toString and only the layout changes: Python switches to
 * scientific notation below 1e-4 and from 1e16 up (JavaScript: 1e-7 and
 * 1e21), always writes an exponent sign and at least two exponent digits,
 * and keeps ".0" on integral values.
 */
export function pythonFloatRepr(n: number): string {
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const abs = n < 0 ? -n : n;
  // Inside this range, and with a fraction, the two languages print the same.
  if (abs >= 1e-4 && abs < 1e16 && !Number.isInteger(n)) return String(n);

  const sign = n < 0 ? "-" : "";
  const js = String(abs);
  let digits: string;
  let exp: number; // decimal exponent of the first digit
  const e = js.indexOf("e");
  if (e !== -1) {
    digits = js.slice(0, e).replace(".", "");
    exp = Number(js.slice(e + 1));
  } else {
    const dot = js.indexOf(".");
    const int = dot === -1 ? js : js.slice(0, dot);
    const frac = dot === -1 ? "" : js.slice(dot + 1);
    if (int !== "0") {
      digits = int + frac;
      exp = int.length - 1;
    } else {
      const lead = frac.length - frac.replace(/^0+/, "").length;
      digits = frac.slice(lead);
      exp = -lead - 1;
    }
  }
  digits = digits.replace(/0+$/, "");

  if (exp < -4 || exp >= 16) {
    const mantissa = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
    const absExp = exp < 0 ? -exp : exp;
    return sign + mantissa + (exp < 0 ? "e-" : "e+") + (absExp < 10 ? "0" : "") + absExp;
  }
  if (exp < 0) return sign + "0." + "0".repeat(-exp - 1) + digits;
  if (digits.length <= exp + 1) return sign + digits + "0".repeat(exp + 1 - digits.length) + ".0";
  return sign + digits.slice(0, exp + 1) + "." + digits.slice(exp + 1);
}

const MAX_INT = Number.MAX_SAFE_INTEGER;

/**
 * A JavaScript number as the canonical body writes it, or undefined when
 * JSON cannot carry it. Integral values below 2^53 are written as integers
 * (JSON.parse cannot tell 5 from 5.0, and an integer is what Python reads
 * back); -0 is such a value and becomes "0". Every other finite number is a
 * Python float.
 */
export function formatNumber(n: number): string | undefined {
  if (Number.isInteger(n) && n <= MAX_INT && n >= -MAX_INT) return String(n); // String(-0) is "0"
  if (n - n !== 0) return undefined; // NaN and ±Infinity
  return pythonFloatRepr(n);
}
