// exchange-kit verify: checks a saved webhook delivery (headers + raw body) with the receiver's rules.
import { readFile } from "node:fs/promises";
import { verifyWebhook, WebhookVerificationError } from "@exchange-kit/webhook-verify";
import { requireCredentials } from "../credentials.js";
import { UsageError } from "../output.js";
import type { Command } from "./command.js";

export const verify: Command = {
  name: "verify",
  summary: "check a saved webhook delivery: signature, timestamp, event",
  usage: `exchange-kit verify --delivery FILE | --body-file FILE --timestamp T --signature S
  --delivery FILE       JSON {"headers": {...}, "body": "<raw body text>"} (what 'listen --save' writes)
  --at-delivery-time    judge the timestamp as of X-TIMESTAMP (for old saved deliveries); default: now
  --tolerance SECONDS   default 300
  --api-key K --api-secret S   credentials (default: EXCHANGE_API_KEY, EXCHANGE_API_SECRET)`,
  options: {
    delivery: { type: "string" },
    "body-file": { type: "string" },
    timestamp: { type: "string" },
    signature: { type: "string" },
    "at-delivery-time": { type: "boolean" },
    tolerance: { type: "string" },
    "api-key": { type: "string" },
    "api-secret": { type: "string" },
  },
  async run({ values, out, env }) {
    const credentials = requireCredentials(values, env);
    let headers: Record<string, string>;
    let body: string;
    if (values.delivery !== undefined) {
      let saved: { headers?: Record<string, string>; body?: unknown };
      try {
        saved = JSON.parse(await readFile(String(values.delivery), "utf8")) as typeof saved;
      } catch (error) {
        throw new UsageError(`cannot read the delivery file: ${(error as Error).message}`);
      }
      if (typeof saved.body !== "string" || !saved.headers) {
        throw new UsageError('the delivery file must be {"headers": {...}, "body": "<the raw body as a string>"}');
      }
      headers = saved.headers;
      body = saved.body;
    } else {
      if (values["body-file"] === undefined || values.timestamp === undefined || values.signature === undefined) {
        throw new UsageError("pass --delivery FILE, or --body-file with --timestamp and --signature");
      }
      headers = { "X-TIMESTAMP": String(values.timestamp), "X-SIGNATURE": String(values.signature) };
      body = await readFile(String(values["body-file"]), "utf8");
    }
    const tolerance = values.tolerance === undefined ? 300 : Number(values.tolerance);
    if (!Number.isFinite(tolerance) || tolerance < 0) throw new UsageError("--tolerance must be a number of seconds >= 0");
    const stamp = Object.entries(headers).find(([name]) => name.toLowerCase() === "x-timestamp")?.[1];
    const now = values["at-delivery-time"] && stamp !== undefined && /^\d+$/.test(stamp) ? Number(stamp) : undefined;
    try {
      const event = await verifyWebhook({ body, headers, ...credentials, toleranceSeconds: tolerance, ...(now === undefined ? {} : { now }) });
      out.result({ valid: true, event }, `${out.green("valid")} ${event.type} ${event.event} ${event.id}${event.known ? "" : out.dim(" (not in the event catalog)")}`);
      return 0;
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      out.result({ valid: false, code: error.code, message: error.message }, `${out.red("invalid")} ${error.code}: ${error.message}`);
      return 1;
    }
  },
};
