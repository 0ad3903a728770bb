import { once } from "node:events";
import type { Server } from "node:http";
import type { ReceivedWebhookEvent } from "../../src/index.js";
import { apiKey, apiSecret, now, payoutInReview, signText } from "./fixtures.js";
import { canonicalize } from "@exchange-kit/signing";

/** Records what a receiver did after answering, and lets a test wait for it. */
export class Recorder {
  readonly events: ReceivedWebhookEvent[] = [];
  readonly errors: unknown[] = [];
  private waiters: (() => void)[] = [];

  readonly onEvent = (event: ReceivedWebhookEvent): void => {
    this.events.push(event);
    this.wake();
  };

  readonly onError = (error: unknown): void => {
    this.errors.push(error);
    this.wake();
  };

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Resolves once `condition` holds, re-checked after each event or error. */
  async until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error("timed out waiting for the receiver");
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }
}

export const settings = { apiKey, apiSecret, now };

/** A signed delivery of `event` (default: the PAYOUT IN_REVIEW example) as fetch init. */
export async function delivery(event: object = payoutInReview, timestamp = now): Promise<RequestInit> {
  const body = canonicalize(event);
  return { method: "POST", body, headers: await signText(body, { timestamp }) };
}

export async function listening<S extends Server>(server: S): Promise<S> {
  if (!server.listening) await once(server, "listening");
  return server;
}

export async function closed(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** What `run` wrote to console.warn and console.error, the handlers' default onError. */
export async function consoleOutput(run: () => Promise<void>): Promise<{ warn: unknown[][]; error: unknown[][] }> {
  const logged = { warn: [] as unknown[][], error: [] as unknown[][] };
  const { warn, error } = console;
  console.warn = (...args: unknown[]) => void logged.warn.push(args);
  console.error = (...args: unknown[]) => void logged.error.push(args);
  try {
    await run();
  } finally {
    Object.assign(console, { warn, error });
  }
  return logged;
}

/** An unsigned request whose X-TIMESTAMP is `timestamp`: a well-formed but wrong X-SIGNATURE. */
export function unsignedDelivery(timestamp: string): RequestInit {
  return {
    method: "POST",
    body: canonicalize(payoutInReview),
    headers: { "content-type": "application/json", "x-timestamp": timestamp, "x-signature": `${"A".repeat(43)}=` },
  };
}
