// Interleaved rounds, shared by bench.mjs and tracing.mjs: every variant runs `perRound` sequential calls per
// round, in an order rotated each round so that drift (GC, CPU frequency, other load) hits every variant alike.

/** One round of `fn`: wall time and this process's CPU time (user + system), in µs per call. */
async function timeRound(fn, perRound) {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < perRound; i++) await fn();
  const wall = Number(process.hrtime.bigint() - start) / 1000 / perRound;
  const { user, system } = process.cpuUsage(cpu);
  return { wall, cpu: (user + system) / perRound };
}

/**
 * Two warm-up rounds of each variant (the connection pool, the JIT, the HMAC key cache), then `rounds` interleaved
 * rounds. Returns each variant's rounds, `{ wall, cpu }` in µs per call, in round order.
 */
export async function interleavedRounds(runs, rounds, perRound) {
  const names = Object.keys(runs);
  for (let i = 0; i < 2; i++) for (const fn of Object.values(runs)) await timeRound(fn, perRound);
  const results = Object.fromEntries(names.map((name) => [name, []]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length];
      results[name].push(await timeRound(runs[name], perRound));
    }
  }
  return results;
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The CPU-time ratio of two variants within each round (they ran back to back), as its median and quartiles: a
 * drift that slows a whole round cancels out, and the quartiles say how far one run's figure can be trusted.
 */
export function paired(runs, baseline) {
  const ratios = runs.map((run, i) => run.cpu / baseline[i].cpu).sort((a, b) => a - b);
  const at = (q) => ratios[Math.min(ratios.length - 1, Math.floor(q * ratios.length))].toFixed(3);
  return `${at(0.5)} [${at(0.25)}–${at(0.75)}]`;
}
