// The demo's webhook receiver: verified, deduplicated events, and how often each one reached the handler.
import type { ReceivedWebhookEvent } from "@exchange-kit/webhook-verify";

export const EVENT_TIMEOUT_MS = 10_000;

export class Receiver {
  readonly handled = new Map<string, number>();
  private readonly waiters: { key: string; resolve: (e: ReceivedWebhookEvent) => void }[] = [];
  private readonly seen = new Map<string, ReceivedWebhookEvent>();

  onEvent = (event: ReceivedWebhookEvent): void => {
    const key = `${event.type} ${event.event} ${event.id}`;
    this.handled.set(key, (this.handled.get(key) ?? 0) + 1);
    this.seen.set(key, event);
    for (const w of this.waiters.filter((w) => w.key === key)) w.resolve(event);
  };

  /** Resolves with the event once the handler has run for it. */
  waitFor(type: string, event: string, id: string): Promise<ReceivedWebhookEvent> {
    const key = `${type} ${event} ${id}`;
    const done = this.seen.get(key);
    if (done) return Promise.resolve(done);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${key} event within ${EVENT_TIMEOUT_MS} ms`)),
        EVENT_TIMEOUT_MS,
      );
      this.waiters.push({ key, resolve: (e) => (clearTimeout(timer), resolve(e)) });
    });
  }
}
