/**
 * Python's `repr(float)` for a finite double. Both languages print the
 * shortest digits that round-trip; Python uses scientific notation below
 * 1e-4 and from 1e16 up (JavaScript: 1e-7 and 1e21), writes at least two
 * exponent digits, and keeps ".0" on integral values.
 */
export function pythonFloatRepr(n: number): string {
  const abs = Math.abs(n);
  if ((abs >= 1e-4 && abs < 1e16) || abs === 0) {
    const s = Object.is(n, -0) ? "-0" : String(n);
    return Number.isInteger(n) ? s + ".0" : s;
  }
  // toExponential() without an argument gives the shortest round-trip digits.
  return n.toExponential().replace(/e([+-])(\d)$/, "e$10$2");
}

/**
 * A JavaScript number as the canonical body writes it, or undefined when
 * JSON cannot carry it. Integral values below 2^53 are integers (JSON.parse
 * cannot tell 5 from 5.0, and an integer is what Python reads back), so -0
 * becomes "0". Every other finite number is a Python float.
 */
export function formatNumber(n: number): string | undefined {
  if (Number.isSafeInteger(n)) return String(n); // String(-0) is "0"
  if (n - n !== 0) return undefined; // NaN and ±Infinity
  return pythonFloatRepr(n);
}
