import type { Deduplicator } from "../../src/index.js";

// Deliveries as the service makes them: each event several times, in random
// order, concurrently, to whichever receiver; a delivery that is not
// acknowledged (in progress elsewhere, or its handler failed) is retried later.

export interface SimulationOptions {
  receivers: Deduplicator[];
  events: number;
  deliveriesPerEvent: number;
  /** Events whose handler throws the first time it runs. */
  failOnce: Set<number>;
  concurrency: number;
  seed: number;
}

export interface SimulationReport {
  deliveries: number;
  retries: number;
  processed: number;
  duplicates: number;
  inProgress: number;
  failures: number;
  /** Handler runs per event, failed ones included. */
  runs: number[];
  /** Successful handler runs per event. */
  successes: number[];
  /** Deliveries handled by each receiver. */
  perReceiver: number[];
}

export function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function eventKey(n: number) {
  return {
    id: `0b6f1a52-7c3d-4e8f-9a1b-${n.toString(16).padStart(12, "0")}`,
    event: "SUCCESS",
    timestamp: "2026-03-01T10:21:04Z",
  };
}

export async function simulateDeliveries(options: SimulationOptions): Promise<SimulationReport> {
  const random = seeded(options.seed);
  const queue: number[] = [];
  for (let n = 0; n < options.events; n++) for (let d = 0; d < options.deliveriesPerEvent; d++) queue.push(n);
  for (let i = queue.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [queue[i], queue[j]] = [queue[j]!, queue[i]!];
  }
  const report: SimulationReport = {
    deliveries: 0,
    retries: 0,
    processed: 0,
    duplicates: 0,
    inProgress: 0,
    failures: 0,
    runs: new Array(options.events).fill(0),
    successes: new Array(options.events).fill(0),
    perReceiver: new Array(options.receivers.length).fill(0),
  };
  let pendingRetries = 0;

  async function deliver(n: number): Promise<void> {
    const r = Math.floor(random() * options.receivers.length);
    report.deliveries++;
    report.perReceiver[r]!++;
    try {
      const outcome = await options.receivers[r]!.run(eventKey(n), async () => {
        const attempt = ++report.runs[n]!;
        await pause(random() * 4);
        if (options.failOnce.has(n) && attempt === 1) throw new Error(`handler of event ${n} fails once`);
        report.successes[n]!++;
      });
      if (outcome.status === "processed") report.processed++;
      else if (outcome.status === "duplicate") report.duplicates++;
      else {
        report.inProgress++;
        retryLater(n);
      }
    } catch {
      report.failures++;
      retryLater(n);
    }
  }

  function retryLater(n: number): void {
    report.retries++;
    pendingRetries++;
    setTimeout(
      () => {
        pendingRetries--;
        queue.push(n);
      },
      2 + random() * 8,
    );
  }

  async function worker(): Promise<void> {
    for (;;) {
      const n = queue.shift();
      if (n !== undefined) await deliver(n);
      else if (pendingRetries > 0) await pause(2);
      else return;
    }
  }

  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return report;
}
