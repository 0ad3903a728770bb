// exchange-kit trigger: moves a sandbox record to a state the document allows, which emits its webhook event.
import { ExchangeError, isExchangeApiError } from "@exchange-kit/client";
import { baseUrl, requireCredentials, serviceClient } from "../credentials.js";
import { UsageError } from "../output.js";
import type { Command } from "./command.js";

/** The event catalog: type -> the sandbox's record kind and the events it can emit. */
const CATALOG: Record<string, { kind: string; events: string[] }> = {
  CUSTOMER: { kind: "customers", events: ["VERIFIED", "FAILED"] },
  BANK: { kind: "banks", events: ["VERIFIED", "FAILED"] },
  PAYIN: { kind: "payins", events: ["SUCCESS", "FAILED", "ON_HOLD", "REFUND_INITIATED", "REFUNDED"] },
  PAYOUT: { kind: "payouts", events: ["SUCCESS", "FAILED", "REFUNDED", "IN_REVIEW"] },
  EDD: { kind: "edd", events: ["VERIFIED", "FAILED"] },
};

export const trigger: Command = {
  name: "trigger",
  summary: "move a sandbox record to a state, emitting its webhook event",
  usage: `exchange-kit trigger TYPE EVENT --id ID [--failure-reason R] [--refund-reason R] [--reason R]
  TYPE EVENT: ${Object.entries(CATALOG).map(([t, c]) => `${t} ${c.events.join("|")}`).join("; ")}
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
    const [type = "", event = ""] = positionals.map((p) => p.toUpperCase());
    const entry = CATALOG[type];
    if (!entry) throw new UsageError(`unknown event type "${type}": one of ${Object.keys(CATALOG).join(", ")}`);
    if (!entry.events.includes(event)) {
      const hint = event === "PROCESSING" ? " (PROCESSING is never sent as an event)" : "";
      throw new UsageError(`${type} has no event "${event}"${hint}: one of ${entry.events.join(", ")}`);
    }
    if (typeof values.id !== "string") throw new UsageError("--id is required: the ID of the record to move");
    const credentials = requireCredentials(values, env);
    const body: Record<string, string> = { status: event };
    for (const [flag, field] of [["failure-reason", "failure_reason"], ["refund-reason", "refund_reason"], ["reason", "reason"]] as const) {
      if (typeof values[flag] === "string") body[field] = values[flag] as string;
    }
    const client = serviceClient(baseUrl(values["base-url"] as string | undefined, env), credentials);
    try {
      const data = await client.request("POST", `/_sandbox/${entry.kind}/${encodeURIComponent(values.id)}/transition`, { body });
      out.result(data ?? null, `${out.green("triggered")} ${type} ${event} for ${values.id}`);
      return 0;
    } catch (error) {
      if (!(error instanceof ExchangeError)) throw error;
      const code = isExchangeApiError(error) ? error.errCode : error.name;
      out.error(code, isExchangeApiError(error) ? `${error.status} ${error.errCode}: ${error.message}` : error.message);
      return 1;
    }
  },
};
