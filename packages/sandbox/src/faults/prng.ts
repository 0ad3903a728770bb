// A small seeded pseudo-random generator for chaos mode: the same seed gives the same sequence on every machine
// and Node version (Math.random cannot be seeded), so a failing soak run can be replayed.

/**
 * mulberry32: 32 bits of state, a period of 2^32, good enough spread for picking faults (not for secrets).
 * Returns numbers in [0, 1).
 *
 * @example
 * const next = mulberry32(42);
 * next(); // 0.6011037519201636, then the same sequence on every run
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
