// The sandbox-only control API under /_sandbox, signed like every other request and scoped to the caller's
// organization: move records to any state the document allows (emitting the matching event), advance the
// clock, read the event and delivery log, redeliver an event, and change runtime settings.
import { ApiError, badRequest, missingFields } from "../domain/api-error.js";
import type { HandlerResult, JsonObject } from "../api/route.js";
import { addUnknownMembers } from "../api/body-members.js";
import { UUID } from "../api/lookups.js";
import type { Ctx, SandboxContext } from "../api/validated-request.js";
import {
  BANK_FAILURE_REASONS,
  CUSTOMER_FAILURE_REASONS,
  PAYIN_REFUND_REASONS,
  PAYOUT_REVIEW_REASONS,
} from "../domain/transitions.js";
import { RECORD_VIEWS } from "../api/views.js";
import { RECORD_KINDS, type RecordKind, type RecordType, type RowOf } from "../record-kinds.js";
import type { EventRow, PlannedStep } from "../records/rows.js";

function field(body: JsonObject, name: string, allowed?: readonly string[]): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || value === "")
    throw badRequest("INPUT_MALFORMED", `Invalid value for ${name}`, name, "Must be a non-empty string.");
  if (allowed && !allowed.includes(value))
    throw badRequest("INPUT_MALFORMED", `Invalid value for ${name}`, name, `Must be one of: ${allowed.join(", ")}.`);
  return value;
}

/** How a transition's body becomes the step it takes, for each kind of the registry (a kind without one fails to type-check). */
const TRANSITION_STEPS: { readonly [T in RecordType]: (body: JsonObject, status: string) => PlannedStep } = {
  CUSTOMER: (body, status) => ({
    status,
    failure_reason:
      status === "FAILED" ? (field(body, "failure_reason", CUSTOMER_FAILURE_REASONS) ?? "KYC_FAILED") : null,
  }),
  BANK: (body, status) => ({
    status,
    failure_reason:
      status === "FAILED" ? (field(body, "failure_reason", BANK_FAILURE_REASONS) ?? "PENNY_DROP_FAILED") : null,
  }),
  PAYIN: (body, status) => ({
    status,
    failure_reason: field(body, "failure_reason") ?? (status === "FAILED" ? "PAYMENT_NOT_RECEIVED" : null),
    refund_reason: field(body, "refund_reason", PAYIN_REFUND_REASONS) ?? null,
  }),
  PAYOUT: (body, status) => {
    const step: PlannedStep = { status };
    const refund = field(body, "refund_reason");
    if (refund) step.refund_reason = refund;
    const reason = field(body, "reason", PAYOUT_REVIEW_REASONS);
    if (reason) step.reason = reason;
    const link = field(body, "rfi_link");
    if (link) {
      if (!/^https?:\/\/\S+$/.test(link))
        throw badRequest("INPUT_MALFORMED", "Invalid value for rfi_link", "rfi_link", "Enter a valid URL.");
      step.rfi_link = link;
    }
    return step;
  },
  EDD: (_body, status) => ({ status }),
};

/**
 * POST /_sandbox/{collection}/{id}/transition {status, ...reason fields}: moves the record of the kind of event
 * type `type` now and emits its event.
 */
export function transition(type: RecordType) {
  // Each entry's view takes its own row; the table this reads from hands back those rows.
  const kind = RECORD_KINDS[type] as unknown as RecordKind<{ org: string }>;
  const view = RECORD_VIEWS[type] as (row: RowOf<typeof type>) => unknown;
  const table = (ctx: Ctx) => ctx.domain.store.recordTable(type);
  return async (ctx: SandboxContext<"id">): Promise<HandlerResult> => {
    const id = ctx.params.id.toLowerCase();
    const record = UUID.test(id) ? await table(ctx).get(id) : undefined;
    if (!record || record.org !== ctx.org.id) {
      throw badRequest(
        "INPUT_INVALID_PARAMETER",
        `No record with this ${kind.idParam} in your organization`,
        kind.idParam,
      );
    }
    if (ctx.body.status === undefined) throw missingFields(["status"]);
    const status = field(ctx.body, "status", kind.statuses)!;
    const step = TRANSITION_STEPS[type](ctx.body, status);
    const before = ctx.domain.events.lastEmitted;
    await ctx.domain.move(type, id, step);
    const emitted = ctx.domain.events.lastEmitted !== before ? ctx.domain.events.lastEmitted : undefined;
    // The record as stored by the move.
    const moved = (await table(ctx).get(id)) ?? record;
    return {
      message: `Moved to ${status}`,
      data: { record: view(moved), event: emitted ? eventView(emitted) : null },
    };
  };
}

export function eventView(row: EventRow) {
  return { id: row.id, created_at: row.created_at, body: row.body, deliveries: row.deliveries };
}

/** GET /_sandbox/events?type=&id=&event= : the organization's events, oldest first, with every delivery attempt. */
export async function listEvents(ctx: SandboxContext): Promise<HandlerResult> {
  const filter = {
    type: ctx.query.get("type") ?? undefined,
    id: ctx.query.get("id")?.toLowerCase() ?? undefined,
    event: ctx.query.get("event") ?? undefined,
  };
  const rows = await ctx.domain.events.list(ctx.org.id, filter);
  return { message: "Events fetched successfully", data: { count: rows.length, results: rows.map(eventView) } };
}

/** POST /_sandbox/events/{event_id}/redeliver : delivers the event again (a new delivery with its own retries). */
export async function redeliverEvent(ctx: SandboxContext<"event_id">): Promise<HandlerResult> {
  const row = (await ctx.domain.store.events.owned(ctx.org.id, ctx.params.event_id.toLowerCase())).row;
  if (!row) throw badRequest("INPUT_INVALID_PARAMETER", "No event with this ID in your organization", "event_id");
  if (!(await ctx.domain.store.orgSettings.get(ctx.org.id))?.webhook_url) {
    throw badRequest(
      "INPUT_INVALID_PARAMETER",
      "No webhook URL registered: POST /org/api/v1/organizations/api-webhooks first",
      "event_id",
    );
  }
  await ctx.domain.events.redeliver(row);
  const delivery = row.deliveries[row.deliveries.length - 1]!;
  return { message: "Redelivery started", data: { event_id: row.id, delivery } };
}

async function clockView(ctx: Ctx) {
  const clock = await ctx.domain.clock(ctx.org.id);
  return { now: clock.iso(), offset_seconds: clock.offsetSeconds };
}

/** GET /_sandbox/clock: the caller's organization's sandbox time and offset. */
export async function getClock(ctx: SandboxContext): Promise<HandlerResult> {
  return { message: "Sandbox clock", data: await clockView(ctx) };
}

/** POST /_sandbox/clock/advance {seconds}: moves the caller's organization's sandbox time (expiry, timestamps, history dates). */
export async function advanceClock(ctx: SandboxContext): Promise<HandlerResult> {
  const seconds = ctx.body.seconds;
  if (seconds === undefined) throw missingFields(["seconds"]);
  if (typeof seconds !== "number" || !Number.isFinite(seconds))
    throw badRequest("INPUT_MALFORMED", "Invalid value for seconds", "seconds", "Must be a number.");
  const clock = await ctx.domain.clock(ctx.org.id);
  if (!clock.canAdvance(seconds)) {
    throw badRequest(
      "INPUT_MALFORMED",
      "Invalid value for seconds",
      "seconds",
      "The sandbox clock stays between 1970-01-01 and 9999-12-31.",
    );
  }
  await clock.advance(seconds);
  return { message: `Clock advanced by ${seconds} s`, data: await clockView(ctx) };
}

async function settingsView(ctx: Ctx) {
  const s = await ctx.domain.settings(ctx.org.id);
  // The organization's webhook URL too: the spec can register one but not read it back, and a tool that
  // borrows the URL for a while (exchange-kit listen) must put the previous one back.
  const webhook_url = (await ctx.domain.store.orgSettings.get(ctx.org.id))?.webhook_url ?? null;
  return {
    auto_progress_ms: s.autoProgressMs,
    duplicate_deliveries: s.duplicateDeliveries,
    quotation_ttl_seconds: s.quotationTtlSeconds,
    webhook_url,
  };
}

/** GET /_sandbox/settings: the caller's organization's settings. */
export async function getSettings(ctx: SandboxContext): Promise<HandlerResult> {
  return { message: "Sandbox settings", data: await settingsView(ctx) };
}

const SETTING_MEMBERS = ["auto_progress_ms", "duplicate_deliveries", "quotation_ttl_seconds", "webhook_url"];
/** The longest delay a Node timer keeps (2^31 - 1 ms): a longer one would fire after 1 ms. */
const MAX_PROGRESS_MS = 2_147_483_647;
/** A year: a longer validity tests nothing a year does not. */
const MAX_TTL_SECONDS = 31_536_000;

function isNumberIn(value: unknown, min: number, max: number, minExclusive = false): boolean {
  return typeof value === "number" && (minExclusive ? value > min : value >= min) && value <= max;
}

/** The field errors of a settings body (empty when it is valid): a typo must not pass for "nothing to change". */
export function settingsErrors(body: JsonObject): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  addUnknownMembers(body, SETTING_MEMBERS, `Unknown setting; the settings are ${SETTING_MEMBERS.join(", ")}.`, errors);
  const progress = body.auto_progress_ms;
  if (progress !== undefined && progress !== false && !isNumberIn(progress, 0, MAX_PROGRESS_MS))
    errors.auto_progress_ms = [`Must be a number from 0 to ${MAX_PROGRESS_MS}, or false.`];
  if (body.duplicate_deliveries !== undefined && typeof body.duplicate_deliveries !== "boolean")
    errors.duplicate_deliveries = ["Must be a boolean."];
  const ttl = body.quotation_ttl_seconds;
  if (ttl !== undefined && !isNumberIn(ttl, 0, MAX_TTL_SECONDS, true))
    errors.quotation_ttl_seconds = [`Must be a number > 0 and at most ${MAX_TTL_SECONDS} (a year).`];
  if (body.webhook_url !== undefined && body.webhook_url !== null) {
    errors.webhook_url = [
      "Only null (unregister) here; register a URL with POST /org/api/v1/organizations/api-webhooks.",
    ];
  }
  return errors;
}

/**
 * POST /_sandbox/settings {auto_progress_ms?: number|false, duplicate_deliveries?: boolean, quotation_ttl_seconds?: number,
 * webhook_url?: null}: changes the caller's organization's settings only. `webhook_url: null` unregisters the
 * organization's URL (registering one is the spec's operation).
 */
export async function updateSettings(ctx: SandboxContext): Promise<HandlerResult> {
  const { body, domain } = ctx;
  const errors = settingsErrors(body);
  if (Object.keys(errors).length > 0) throw new ApiError(400, "INPUT_MALFORMED", "Invalid settings", errors);
  if (body.webhook_url === null) {
    await domain.store.orgSettings.put({
      id: ctx.org.id,
      org: ctx.org.id,
      webhook_url: null,
      updated_at: (await domain.clock(ctx.org.id)).iso(),
    });
  }
  // The body was checked above, so each member has its setting's type.
  await domain.updateSettings(ctx.org.id, {
    autoProgressMs: body.auto_progress_ms as number | false | undefined,
    duplicateDeliveries: body.duplicate_deliveries as boolean | undefined,
    quotationTtlSeconds: body.quotation_ttl_seconds as number | undefined,
  });
  return { message: "Sandbox settings updated", data: await settingsView(ctx) };
}
