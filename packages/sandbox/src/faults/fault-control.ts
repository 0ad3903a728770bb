// The control API of the fault plan, signed and scoped to the caller's organization like the rest of /_sandbox:
// POST /_sandbox/faults arms a rule, GET lists what is armed and what fired, DELETE clears both.
import { badRequest } from "../domain/api-error.js";
import type { HandlerResult } from "../api/route.js";
import type { SandboxContext } from "../api/validated-request.js";
import type { FaultPlan } from "./fault-plan.js";
import type { FaultRuleRow, FiredFaultRow } from "./fault-records.js";
import { parseFaultRequest } from "./fault-request.js";

const DEFAULT_FIRED_LIMIT = 100;
const MAX_FIRED_LIMIT = 1000;

/** A rule as answered: `operation` for a request fault, `event_type` for a webhook fault. */
export function ruleView(row: FaultRuleRow) {
  return {
    id: row.id,
    ...(row.scope === "request" ? { operation: row.target } : { event_type: row.target }),
    fault: row.fault,
    times: row.times,
    remaining: row.remaining,
    ...(row.delay_ms === undefined ? {} : { delay_ms: row.delay_ms }),
    ...(row.retry_after === undefined ? {} : { retry_after: row.retry_after }),
    created_at: row.created_at,
  };
}

export function firedView(row: FiredFaultRow) {
  const { org: _org, created_at, scope: _scope, ...rest } = row;
  return { ...rest, at: created_at };
}

/** ?limit= of GET /_sandbox/faults: how many fired faults to list, 1 to 1000 (default 100). */
function firedLimit(value: string | null): number {
  if (value === null) return DEFAULT_FIRED_LIMIT;
  const limit = Number(value);
  if (!/^\d+$/.test(value) || limit < 1 || limit > MAX_FIRED_LIMIT)
    throw badRequest("INPUT_MALFORMED", "Invalid value for limit", "limit", `Must be from 1 to ${MAX_FIRED_LIMIT}.`);
  return limit;
}

/**
 * POST /_sandbox/faults {operation | event_type, fault, times?, delay_ms?, retry_after?}: arms a fault for the
 * caller's organization; a 400 names every member that is wrong.
 */
async function armFault(plan: FaultPlan, ctx: SandboxContext): Promise<HandlerResult> {
  const row = await plan.arm(ctx.org.id, parseFaultRequest(ctx.body));
  return { message: "Fault armed", data: ruleView(row) };
}

/** GET /_sandbox/faults?limit=: the armed rules (oldest first) and the faults that fired (newest first, counted). */
async function listFaults(plan: FaultPlan, ctx: SandboxContext): Promise<HandlerResult> {
  const limit = firedLimit(ctx.query.get("limit"));
  const fired = await plan.fired(ctx.org.id, limit);
  return {
    message: "Fault plan",
    data: {
      armed: (await plan.armed(ctx.org.id)).map(ruleView),
      fired: { count: fired.total, by_fault: fired.byFault, results: fired.recent.map(firedView) },
    },
  };
}

/** DELETE /_sandbox/faults: disarms every rule of the caller's organization and forgets what fired. */
async function clearFaults(plan: FaultPlan, ctx: SandboxContext): Promise<HandlerResult> {
  const cleared = await plan.clear(ctx.org.id);
  return { message: "Fault plan cleared", data: { disarmed: cleared.armed, fired_forgotten: cleared.fired } };
}

/**
 * The fault plan's control routes over `plan` (the composition root's, the one the server's fault stage reads).
 *
 * @example
 * const control = faultControl(new StoreFaultPlan(store));
 * sandboxRoute("POST", "/_sandbox/faults", control.arm);
 */
export function faultControl(plan: FaultPlan) {
  return {
    arm: (ctx: SandboxContext) => armFault(plan, ctx),
    list: (ctx: SandboxContext) => listFaults(plan, ctx),
    clear: (ctx: SandboxContext) => clearFaults(plan, ctx),
  };
}
