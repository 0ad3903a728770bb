import { CATALOG } from "./catalog.js";
import type { ReceivedWebhookEvent, UnknownWebhookEvent, WebhookEvent } from "./events.js";
import { WebhookRouteError } from "./router-errors.js";

// Handlers by (type, event), by type, for every event, and for events the catalog does not know. The router is
// itself the function the adapters (`onEvent`) and the inbox (`handler`) take, so it plugs in wherever a handler
// goes. Handlers run one after another in the order they were registered; the first that throws stops the rest
// and rejects, so that the delivery or the inbox's run fails and is retried as a whole.

/** A `type` of the event catalog, one of the five record kinds that send events. */
export type WebhookEventType = WebhookEvent["type"];

/** An `event` the catalog has for type `T`: `WebhookEventStatus<"PAYOUT">` is the union of the PAYOUT events. */
export type WebhookEventStatus<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>["event"];

/** A handler the router runs: the event, typed by what it was registered for, and the caller's context. */
export type WebhookRouteHandler<E, Context = unknown> = (event: E, context: Context) => unknown;

/**
 * The router's arguments beside the event: with the default `Context` (`unknown`) the context may be left out,
 * so the router fits `onEvent`; with `createWebhookRouter<InboxContext>()` it is required, so the router fits
 * an inbox's `handler` and the handlers read `context.attempt`.
 */
export type WebhookRouterContext<Context> = undefined extends Context ? [context?: Context] : [context: Context];

/**
 * Typed handlers for the webhook events, by (type, event) as octokit's `on()`. Call it with an event (the
 * adapters and the inbox do): every handler registered for it runs, in registration order. Resolves once they
 * all have; the first handler that throws stops the rest and the router rejects with its error.
 */
export interface WebhookRouter<Context = unknown> {
  /** Runs every handler registered for `event`, in registration order; rejects with the first one's error. */
  (event: ReceivedWebhookEvent, ...context: WebhookRouterContext<Context>): Promise<void>;
  /**
   * Runs `handler` for this catalog event, its metadata typed (PAYOUT SUCCESS has `utr`). A WebhookRouteError
   * (and a type error) for a pair the catalog does not have.
   */
  on<T extends WebhookEventType, E extends WebhookEventStatus<T>>(
    type: T,
    event: E,
    handler: WebhookRouteHandler<Extract<WebhookEvent, { type: T; event: E }>, Context>,
  ): this;
  /** Runs `handler` for every catalog event of `type` (narrow it on `event.event`). */
  on<T extends WebhookEventType>(
    type: T,
    handler: WebhookRouteHandler<Extract<WebhookEvent, { type: T }>, Context>,
  ): this;
  /** Runs `handler` for every event, the catalog's and the unknown ones (`known: false`). */
  onAny(handler: WebhookRouteHandler<ReceivedWebhookEvent, Context>): this;
  /**
   * Runs `handler` for every event the catalog does not know (`known: false`): a new type or status the
   * service started sending, or a known pair whose metadata does not match the catalog.
   */
  onUnknown(handler: WebhookRouteHandler<UnknownWebhookEvent, Context>): this;
}

/** Which events a route takes. */
export type RouteSelector =
  | { kind: "pair"; type: string; event: string }
  | { kind: "type"; type: string }
  | { kind: "any" }
  | { kind: "unknown" };

/** Whether a route registered with `selector` runs for `event`. Unknown events reach `any` and `unknown` only. */
export function selects(selector: RouteSelector, event: ReceivedWebhookEvent): boolean {
  switch (selector.kind) {
    case "any":
      return true;
    case "unknown":
      return !event.known;
    case "type":
      return event.known && event.type === selector.type;
    case "pair":
      return event.known && event.type === selector.type && event.event === selector.event;
  }
}

const quoted = (value: unknown) => JSON.stringify(String(value).slice(0, 64));

/**
 * The WebhookRouteError for a route the catalog does not have, or undefined when it has it. `event` undefined:
 * a route for every event of `type`.
 */
export function routeError(type: unknown, event?: unknown): WebhookRouteError | undefined {
  const events = typeof type === "string" && Object.hasOwn(CATALOG, type) ? CATALOG[type]! : undefined;
  const later = "a handler for it would never run; events the catalog does not know reach onUnknown and onAny";
  if (events === undefined) {
    const types = Object.keys(CATALOG).join(", ");
    const message = `no webhook event type ${quoted(type)} in the event catalog (${types}): ${later}`;
    return new WebhookRouteError(
      "UNKNOWN_TYPE",
      String(type),
      event === undefined ? undefined : String(event),
      message,
    );
  }
  if (event === undefined || (typeof event === "string" && Object.hasOwn(events, event))) return undefined;
  const never = event === "PROCESSING" ? ". PROCESSING is a status records pass through, never sent as an event" : "";
  const message =
    `${type} has no event ${quoted(event)} in the event catalog (${Object.keys(events).join(", ")}): ` +
    `${later}${never}`;
  return new WebhookRouteError("UNKNOWN_EVENT", type as string, String(event), message);
}

type AnyHandler = (event: never, context: unknown) => unknown;

/** The handler, or a TypeError naming the registration that lacks one. */
function handlerOf(handler: unknown, registration: string): AnyHandler {
  if (typeof handler !== "function") throw new TypeError(`${registration} needs a handler function`);
  return handler as AnyHandler;
}

/** A route of `on`: for one pair when `second` is the event, for every event of `type` when it is the handler. */
function onRoute(type: unknown, second: unknown, third: unknown): [RouteSelector, AnyHandler] {
  const event = typeof second === "function" ? undefined : second;
  const error = routeError(type, event);
  if (error !== undefined) throw error;
  const registration = `router.on(${quoted(type)}${event === undefined ? "" : `, ${quoted(event)}`})`;
  const handler = handlerOf(event === undefined ? second : third, registration);
  const selector: RouteSelector =
    event === undefined
      ? { kind: "type", type: type as string }
      : { kind: "pair", type: type as string, event: event as string };
  return [selector, handler];
}

/**
 * A router of webhook events to typed handlers: `on(type, event, handler)` for one catalog event (its
 * metadata typed), `on(type, handler)` for every event of a type, `onAny`, `onUnknown`. The router is a
 * function: pass it as `onEvent` to `createWebhookHandler` / `createNodeWebhookHandler`, or as `handler` to
 * `createInbox` (with `createWebhookRouter<InboxContext>()`, handlers get the inbox's `{ attempt, key }`).
 * Handlers run in registration order; the first that throws stops the rest and fails the delivery's handling
 * (reported to `onError`) or the inbox's run (retried). A pair the catalog lacks is a type error and, at
 * registration, a WebhookRouteError.
 *
 * @example
 * const router = createWebhookRouter()
 *   .on("PAYOUT", "SUCCESS", (event) => markPaid(event.metadata.client_reference_id, event.metadata.utr))
 *   .on("CUSTOMER", "FAILED", (event) => notifyKycFailed(event.id, event.metadata.failure_reason))
 *   .onUnknown((event) => console.warn(`new event ${event.type} ${event.event}`));
 * app.post("/webhooks/exchange", createNodeWebhookHandler({ apiKey, apiSecret }, router));
 */
export function createWebhookRouter<Context = unknown>(): WebhookRouter<Context> {
  const routes: [RouteSelector, AnyHandler][] = [];
  async function route(event: ReceivedWebhookEvent, context?: Context): Promise<void> {
    // A handler that registers another one mid-event does not change which run for this event.
    for (const [selector, handler] of routes.slice()) {
      if (selects(selector, event)) await handler(event as never, context);
    }
  }
  const router = Object.assign(route, {
    on(type: unknown, second: unknown, third?: unknown) {
      routes.push(onRoute(type, second, third));
      return router;
    },
    onAny(handler: unknown) {
      routes.push([{ kind: "any" }, handlerOf(handler, "router.onAny")]);
      return router;
    },
    onUnknown(handler: unknown) {
      routes.push([{ kind: "unknown" }, handlerOf(handler, "router.onUnknown")]);
      return router;
    },
  });
  return router as unknown as WebhookRouter<Context>;
}
