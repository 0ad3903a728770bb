export interface RetrySchedule {
  /** Give up once the next wait would end past this many milliseconds from the first try. */
  totalMs: number;
  firstMs: number;
  maxMs: number;
}

// A write that settles work already done (a done mark, an inbox entry's removal) is retried for longer than
// the sender's retry schedule, so a short store outage after the handler ran does not turn into a second run.
export const SETTLE_RETRY: RetrySchedule = { totalMs: 30_000, firstMs: 100, maxMs: 2_000 };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `call`, tried again after doubling waits until it succeeds or the schedule runs out (then its last error). */
export async function retrying<T>(call: () => Promise<T>, schedule: RetrySchedule = SETTLE_RETRY): Promise<T> {
  const deadline = Date.now() + schedule.totalMs;
  for (let wait = schedule.firstMs; ; wait = Math.min(wait * 2, schedule.maxMs)) {
    try {
      return await call();
    } catch (error) {
      if (Date.now() + wait > deadline) throw error;
      await pause(wait);
    }
  }
}
