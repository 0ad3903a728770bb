/**
 * An event's handler failed on its last allowed run (`maxAttempts`), or the receiver died during every one of
 * them: the event is parked. It is not lost: `inbox.parked()` lists it and `inbox.replay(key)` runs it again.
 * `cause` is the last run's error.
 *
 * @example
 * onError: (error) => {
 *   if (error instanceof EventParkedError) alert(`webhook ${error.key} parked after ${error.attempts} runs`);
 * }
 */
export class EventParkedError extends Error {
  override readonly name = "EventParkedError";
  /** The event's dedup key (`id:event:timestamp` by default): what `inbox.replay` takes. */
  readonly key: string;
  /** How many runs it had. */
  readonly attempts: number;

  constructor(key: string, attempts: number, cause: unknown) {
    super(
      `webhook event ${key} parked after ${attempts} run${attempts === 1 ? "" : "s"}: ` +
        `${cause instanceof Error ? cause.message : String(cause)}; inbox.replay("${key}") runs it again`,
      { cause },
    );
    this.key = key;
    this.attempts = attempts;
  }
}
