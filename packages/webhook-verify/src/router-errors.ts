/**
 * A handler was registered for an event the catalog does not have: a `type` that is not one of the catalog's
 * (`UNKNOWN_TYPE`), or an `event` that type never announces (`UNKNOWN_EVENT`, e.g. PAYOUT PROCESSING:
 * PROCESSING is never sent as an event). Such a handler would never run, so `on` throws at registration. A
 * TypeError, as it is a mistake in the code, not in a delivery.
 *
 * @example
 * try {
 *   router.on("PAYOUT", "PROCESSING" as never, handler);
 * } catch (error) {
 *   if (error instanceof WebhookRouteError) console.error(error.code, error.message); // UNKNOWN_EVENT ...
 * }
 */
export class WebhookRouteError extends TypeError {
  override readonly name = "WebhookRouteError";
  /** `UNKNOWN_TYPE`: no such type in the catalog; `UNKNOWN_EVENT`: the type has no such event. */
  readonly code: "UNKNOWN_TYPE" | "UNKNOWN_EVENT";
  /** The type given to `on`. */
  readonly type: string;
  /** The event given to `on`, when one was. */
  readonly event: string | undefined;

  constructor(code: WebhookRouteError["code"], type: string, event: string | undefined, message: string) {
    super(message);
    this.code = code;
    this.type = type;
    this.event = event;
  }
}
