/**
 * 1 when the two strings are equal, else 0, in time that depends only on
 * the length (public here: both are 44-character digests). No early exit,
 * and the result is computed without a branch on the data.
 */
export function equalBit(a: string, b: string): number {
  if (a.length !== b.length) return 0;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return (diff - 1) >>> 31;
}
