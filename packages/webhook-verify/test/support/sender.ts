import { canonicalize } from "@exchange-kit/signing";
import type { FetchWebhookHandler } from "../../src/index.js";
import { eventNumber, signText } from "./fixtures.js";

// The service's side of a delivery, as the sandbox makes it: up to 6 attempts,
// the first retry after `initialDelayMs`, each wait twice the last; any answer
// but 2xx is a failed attempt. The sandbox waits 500 ms first (0.5 + 1 + 2 + 4
// + 8 = 15.5 s in all); the fault tests scale the schedule and the receiver's
// lease by 1/4 (3.9 s, 1.25 s), so their ratio is the real one, and keep the
// real 1 s store timeout, which a loaded machine's fsyncs can come close to.
export const SCALED_RETRY = { maxAttempts: 6, initialDelayMs: 125, factor: 2 };

export interface SendReport {
  /** The status of each attempt, in order. */
  statuses: number[];
  /** The Retry-After header of each attempt (null when absent). */
  retryAfter: (string | null)[];
  acknowledged: boolean;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Delivers event number `n`, each attempt to the receiver `pick` chooses, until one answers 2xx or attempts run out. */
export async function send(
  n: number,
  pick: (attempt: number) => FetchWebhookHandler,
  retry = SCALED_RETRY,
): Promise<SendReport> {
  const body = canonicalize(eventNumber(n));
  const headers = await signText(body);
  const report: SendReport = { statuses: [], retryAfter: [], acknowledged: false };
  for (let attempt = 0, wait = retry.initialDelayMs; attempt < retry.maxAttempts; attempt++, wait *= retry.factor) {
    const response = await pick(attempt)(
      new Request("https://receiver.example/webhooks", { method: "POST", headers, body }),
    );
    await response.arrayBuffer();
    report.statuses.push(response.status);
    report.retryAfter.push(response.headers.get("retry-after"));
    if (response.status >= 200 && response.status < 300) {
      report.acknowledged = true;
      break;
    }
    if (attempt < retry.maxAttempts - 1) await pause(wait);
  }
  return report;
}
