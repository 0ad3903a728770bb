// exchange-kit trigger: moves a sandbox record to a state the document allows, which emits its webhook event.
import { ExchangeError, isExchangeApiError } from "@exchange-kit/client";
import {
  type WebhookEventType,
  type WebhookMetadataRule,
  webhookEventsByType,
  webhookMetadataRules,
} from "@exchange-kit/types";
import { authFailureMessage } from "../auth-failure.js";
import { baseUrl, requireCredentials, serviceClient } from "../credentials.js";
import { UsageError } from "../output.js";
import { unreachableMessage } from "../unreachable.js";
import type { Command } from "./command.js";

/** The flags that set an event's reason fields, and the metadata field each one sets. */
const REASON_FLAGS = [
  ["failure-reason", "failure_reason"],
  ["refund-reason", "refund_reason"],
  ["reason", "reason"],
] as const;

type MetadataRules = { readonly [key: string]: WebhookMetadataRule };

const isType = (type: string): type is WebhookEventType => Object.hasOwn(webhookEventsByType, type);
const eventsOf = (type: WebhookEventType): readonly string[] => webhookEventsByType[type];

/**
 * The reason fields of an event, each with the values the spec allows (null: any text), from the spec's catalog
 * (@exchange-kit/types): `trigger` checks and lists them from the spec instead of a retyped copy.
 */
function reasonsOf(type: WebhookEventType, event: string): Record<string, readonly string[] | null> {
  const events: { readonly [event: string]: MetadataRules } = webhookMetadataRules[type];
  const rules = Object.hasOwn(events, event) ? events[event]! : {};
  const reasons: Record<string, readonly string[] | null> = {};
  for (const [, field] of REASON_FLAGS) {
    const rule = rules[field];
    if (rule) reasons[field] = rule.values ?? null;
  }
  return reasons;
}

/** The body of the transition: the status, and each reason flag checked against the values the spec allows. */
function transitionBody(
  type: WebhookEventType,
  event: string,
  values: Record<string, string | boolean | undefined>,
): Record<string, string> {
  const fields = reasonsOf(type, event);
  const body: Record<string, string> = { status: event };
  for (const [flag, field] of REASON_FLAGS) {
    const value = values[flag];
    if (typeof value !== "string") continue;
    if (!Object.hasOwn(fields, field)) {
      const takes = Object.keys(fields).map((f) => `--${f.replace(/_/g, "-")}`);
      throw new UsageError(`${type} ${event} has no ${field}${takes.length ? `: it takes ${takes.join(", ")}` : ""}`);
    }
    const allowed = fields[field];
    if (allowed && !allowed.includes(value))
      throw new UsageError(`unknown ${field} "${value}" for ${type} ${event}: one of ${allowed.join(", ")}`);
    body[field] = value;
  }
  return body;
}

/**
 * A failed call as the error line shows it: the sandbox unreachable (its URL and how to start it), a 401 (which
 * credential to check), or the answer's status and err_code.
 */
function callFailure(error: ExchangeError, base: string): { code: string; message: string } {
  const unreachable = unreachableMessage(error, base);
  if (unreachable) return { code: "SANDBOX_UNREACHABLE", message: unreachable };
  if (!isExchangeApiError(error)) return { code: error.name, message: error.message };
  const code = error.errCode ?? `HTTP_${error.status}`;
  if (error.status === 401) return { code, message: authFailureMessage(error.errCode, base) };
  return { code, message: `${error.status} ${error.errCode}: ${error.message}` };
}

function catalogUsage(): string {
  return (Object.keys(webhookEventsByType) as WebhookEventType[])
    .map((type) => {
      const described = eventsOf(type).map((event) => {
        const reasons = Object.entries(reasonsOf(type, event)).map(
          ([f, allowed]) =>
            `--${f.replace(/_/g, "-")} ${allowed ? allowed.map((a) => (a.includes(" ") ? `"${a}"` : a)).join("|") : "TEXT"}`,
        );
        return reasons.length ? `${event} (${reasons.join(", ")})` : event;
      });
      return `    ${type}: ${described.join(", ")}`;
    })
    .join("\n");
}

export const trigger: Command = {
  usage: `exchange-kit trigger TYPE EVENT --id ID [--failure-reason R] [--refund-reason R] [--reason R]
  TYPE EVENT, and the reasons each takes (from the spec's webhooks):
${catalogUsage()}
  --base-url URL   the sandbox (default: EXCHANGE_BASE_URL, then http://127.0.0.1:4020)
  --api-key K --api-secret S   credentials (default: EXCHANGE_API_KEY, EXCHANGE_API_SECRET)`,
  options: {
    id: { type: "string" },
    "failure-reason": { type: "string" },
    "refund-reason": { type: "string" },
    reason: { type: "string" },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    "api-secret": { type: "string" },
  },
  async run({ values, positionals, out, env }) {
    if (positionals.length === 0) throw new UsageError("which event? name its TYPE and EVENT");
    const [type = "", event = ""] = positionals.map((p) => p.toUpperCase());
    if (!isType(type))
      throw new UsageError(`unknown event type "${type}": one of ${Object.keys(webhookEventsByType).join(", ")}`);
    const events = eventsOf(type);
    if (!events.includes(event)) {
      const hint = event === "PROCESSING" ? " (PROCESSING is never sent as an event)" : "";
      throw new UsageError(`${type} has no event "${event}"${hint}: one of ${events.join(", ")}`);
    }
    if (typeof values.id !== "string") throw new UsageError("--id is required: the ID of the record to move");
    const body = transitionBody(type, event, values);
    const credentials = requireCredentials(values, env);
    const base = baseUrl(values["base-url"] as string | undefined, env);
    const client = serviceClient(base, credentials);
    try {
      // The sandbox's record-kind registry names the path (a new event type in the spec has its kind there). It is
      // imported here, once the flags are checked: the sandbox's entry costs ~0.3 s of CPU to load, which --help
      // and a usage error need not pay.
      const { transitionPath } = await import("@exchange-kit/sandbox");
      const data = await client.request("POST", transitionPath(type, values.id), { body });
      out.result(data ?? null, `${out.green("triggered")} ${type} ${event} for ${values.id}`);
      return 0;
    } catch (error) {
      if (!(error instanceof ExchangeError)) throw error;
      const failure = callFailure(error, base);
      out.error(failure.code, failure.message);
      return 1;
    }
  },
};
