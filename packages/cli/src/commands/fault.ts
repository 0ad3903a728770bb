// exchange-kit fault add|list|clear: the sandbox's fault plan (POST/GET/DELETE /_sandbox/faults), with the
// same members as the control API. The sandbox checks the plan and names what is wrong; the command only turns
// flags into the body. It never loads the sandbox itself: it talks to a running one.
import { ExchangeError, type ExchangeClient, isExchangeApiError } from "@exchange-kit/client";
import { operationIndex, webhookEventTypes } from "@exchange-kit/types";
import { baseUrl, requireCredentials, serviceClient } from "../credentials.js";
import { unknownNameMessage } from "../did-you-mean.js";
import { type Output, UsageError } from "../output.js";
import { unreachableMessage } from "../unreachable.js";
import type { Command, CommandContext } from "./command.js";

/** Flags of `fault add`, each the control API's member of the same name. */
const BODY_FLAGS = [
  ["operation", "operation", "text"],
  ["event-type", "event_type", "text"],
  ["fault", "fault", "text"],
  ["times", "times", "number"],
  ["delay-ms", "delay_ms", "number"],
  ["retry-after", "retry_after", "number"],
] as const;

/** `--operation` and `--event-type` take a name the spec knows, or "*" (any); a near miss gets "did you mean". */
function checkTarget(body: Record<string, string | number>): void {
  const { operation, event_type: eventType } = body;
  if (typeof operation === "string" && operation !== "*" && !(operation in operationIndex))
    throw new UsageError(
      unknownNameMessage("--operation", operation, Object.keys(operationIndex), 'the spec\'s operationIds, or "*"'),
    );
  if (typeof eventType === "string" && eventType !== "*" && !webhookEventTypes.includes(eventType as never))
    throw new UsageError(
      unknownNameMessage("--event-type", eventType, webhookEventTypes, `${webhookEventTypes.join(", ")} or "*"`),
    );
}

/**
 * The body of POST /_sandbox/faults from `fault add`'s flags; a number flag that is not a number is a usage error.
 *
 * @example
 * faultBody({ operation: "initiatePayout", fault: "DROP_AFTER_COMMIT", times: "2" });
 * // { operation: "initiatePayout", fault: "DROP_AFTER_COMMIT", times: 2 }
 */
export function faultBody(values: CommandContext["values"]): Record<string, string | number> {
  const body: Record<string, string | number> = {};
  for (const [flag, member, kind] of BODY_FLAGS) {
    const value = values[flag];
    if (typeof value !== "string") continue;
    if (kind === "text") body[member] = value;
    else if (/^-?\d+$/.test(value)) body[member] = Number(value);
    else throw new UsageError(`--${flag} must be a whole number, got "${value}"`);
  }
  if (body.fault === undefined) throw new UsageError("--fault is required: the kind of fault to arm");
  checkTarget(body);
  return body;
}

interface Rule {
  id: string;
  operation?: string;
  event_type?: string;
  fault: string;
  times: number;
  remaining: number;
  delay_ms?: number;
  retry_after?: number;
}

interface Fired {
  at: string;
  fault: string;
  source: string;
  operation?: string;
  method?: string;
  path?: string;
  event_type?: string;
  event_id?: string;
}

interface Plan {
  armed: Rule[];
  fired: { count: number; by_fault: Record<string, number>; results: Fired[] };
}

/** One armed rule as a line: `HTTP_503 on listCustomers, 1 of 2 left, delay 200 ms`. */
export function ruleLine(rule: Rule): string {
  const target = rule.operation ?? `${rule.event_type} events`;
  const extras = [
    `${rule.remaining} of ${rule.times} left`,
    ...(rule.delay_ms === undefined ? [] : [`delay ${rule.delay_ms} ms`]),
    ...(rule.retry_after === undefined ? [] : [`Retry-After ${rule.retry_after} s`]),
  ];
  return `${rule.fault} on ${target}, ${extras.join(", ")} (${rule.id})`;
}

/** One fired fault as a line: `2026-05-01T10:00:00.000Z HTTP_503 GET /cms/api/v1/customer/list (chaos)`. */
export function firedLine(fired: Fired): string {
  const where = fired.path ? `${fired.method} ${fired.path}` : `${fired.event_type} event ${fired.event_id}`;
  return `${fired.at} ${fired.fault} ${where}${fired.source === "chaos" ? " (chaos)" : ""}`;
}

function printPlan(out: Output, plan: Plan): void {
  const counts = Object.entries(plan.fired.by_fault).map(([fault, n]) => `${fault} ${n}`);
  const lines = [
    plan.armed.length ? out.bold("armed") : "armed: none",
    ...plan.armed.map((rule) => `  ${ruleLine(rule)}`),
    `${out.bold("fired")}: ${plan.fired.count}${counts.length ? ` (${counts.join(", ")})` : ""}`,
    ...plan.fired.results.map((fired) => `  ${firedLine(fired)}`),
  ];
  out.result(plan, lines.join("\n"));
}

async function runAction(action: string, client: ExchangeClient, values: CommandContext["values"], out: Output) {
  if (action === "add") {
    const rule = await client.request<Rule>("POST", "/_sandbox/faults", { body: faultBody(values) });
    out.result(rule, `${out.green("armed")} ${ruleLine(rule)}`);
  } else if (action === "list") {
    const limit = typeof values.limit === "string" ? values.limit : undefined;
    printPlan(out, await client.request<Plan>("GET", "/_sandbox/faults", { query: { limit } }));
  } else {
    const cleared = await client.request<{ disarmed: number; fired_forgotten: number }>("DELETE", "/_sandbox/faults");
    out.result(
      cleared,
      `${out.green("cleared")}: ${cleared.disarmed} disarmed, ${cleared.fired_forgotten} fired forgotten`,
    );
  }
}

/** The exit code of a failed call: 2 when the sandbox refused the plan (it names the field), 1 otherwise. */
function reportFailure(error: ExchangeError, base: string, out: Output): number {
  const unreachable = unreachableMessage(error, base);
  if (unreachable) {
    out.error("SANDBOX_UNREACHABLE", unreachable);
    return 1;
  }
  if (!isExchangeApiError(error)) {
    out.error(error.name, error.message);
    return 1;
  }
  const fields = Object.entries(error.fieldErrors).map(([field, messages]) => `\n  ${field}: ${messages.join(" ")}`);
  out.error(error.errCode, `${error.status} ${error.errCode}: ${error.message}${fields.join("")}`);
  return error.status === 400 ? 2 : 1;
}

export const fault: Command = {
  usage: `exchange-kit fault add --operation OPERATION_ID|"*" --fault KIND [--times N] [--delay-ms MS] [--retry-after S]
exchange-kit fault add --event-type TYPE|"*" --fault KIND [--times N] [--delay-ms MS]
exchange-kit fault list [--limit N]
exchange-kit fault clear
  request KIND: HTTP_429 (--retry-after S adds Retry-After), HTTP_500, HTTP_503, NET_TIMEOUT, UNKNOWN_ERROR
                (the document's error answer; nothing changes), DELAY (--delay-ms: answers late), RESET (the
                connection closes unanswered; nothing changes), DROP_AFTER_COMMIT (done and committed, events
                emitted, then the connection closes unanswered). --delay-ms on any request kind waits first.
  webhook KIND: DUPLICATE_DELIVERY, OUT_OF_ORDER (held until a later event of the record was delivered, at most
                --delay-ms, default 5000), DELAYED_DELIVERY (--delay-ms late)
  --times N        how many matching requests (or events) it fires on (default 1)
  faults are the caller's organization's only; list shows what is armed and what fired
  --base-url URL   the sandbox (default: EXCHANGE_BASE_URL, then http://127.0.0.1:4020)
  --api-key K --api-secret S   credentials (default: EXCHANGE_API_KEY, EXCHANGE_API_SECRET)`,
  options: {
    operation: { type: "string" },
    "event-type": { type: "string" },
    fault: { type: "string" },
    times: { type: "string" },
    "delay-ms": { type: "string" },
    "retry-after": { type: "string" },
    limit: { type: "string" },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    "api-secret": { type: "string" },
  },
  async run({ values, positionals, out, env }) {
    const [action = ""] = positionals;
    if (!["add", "list", "clear"].includes(action))
      throw new UsageError(`fault takes add, list or clear${action ? `, not "${action}"` : ""}`);
    const credentials = requireCredentials(values, env);
    const base = baseUrl(values["base-url"] as string | undefined, env);
    try {
      await runAction(action, serviceClient(base, credentials), values, out);
      return 0;
    } catch (error) {
      if (!(error instanceof ExchangeError)) throw error;
      return reportFailure(error, base, out);
    }
  },
};
