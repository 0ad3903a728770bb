// exchange-kit verify: checks a saved webhook delivery (headers + raw body) with the receiver's rules.
import { verifyWebhook, WebhookVerificationError } from "@exchange-kit/webhook-verify";
import { requireCredentials } from "../credentials.js";
import { readDeliveries, type SavedDelivery } from "../deliveries.js";
import { readUsageFile, UsageError } from "../output.js";
import type { Command } from "./command.js";

export const verify: Command = {
  name: "verify",
  summary: "check a saved webhook delivery: signature, timestamp, event",
  usage: `exchange-kit verify --delivery FILE | --body-file FILE --timestamp T --signature S
  --delivery FILE       JSON {"headers": {...}, "body": "<raw body text>"}, or JSON lines of them (what
                        'listen --save' writes): every delivery is checked; exit 1 if any is invalid
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
    let deliveries: SavedDelivery[];
    if (values.delivery !== undefined) {
      const file = String(values.delivery);
      deliveries = readDeliveries(await readUsageFile(file, "--delivery"), file);
    } else {
      if (values["body-file"] === undefined || values.timestamp === undefined || values.signature === undefined) {
        throw new UsageError("pass --delivery FILE, or --body-file with --timestamp and --signature");
      }
      const headers = { "X-TIMESTAMP": String(values.timestamp), "X-SIGNATURE": String(values.signature) };
      deliveries = [{ headers, body: await readUsageFile(String(values["body-file"]), "--body-file") }];
    }
    const tolerance = values.tolerance === undefined ? 300 : Number(values.tolerance);
    if (!Number.isFinite(tolerance) || tolerance < 0)
      throw new UsageError("--tolerance must be a number of seconds >= 0");
    let invalid = 0;
    for (const { headers, body } of deliveries) {
      const stamp = Object.entries(headers).find(([name]) => name.toLowerCase() === "x-timestamp")?.[1];
      const now = values["at-delivery-time"] && stamp !== undefined && /^\d+$/.test(stamp) ? Number(stamp) : undefined;
      try {
        const event = await verifyWebhook({
          body,
          headers,
          ...credentials,
          toleranceSeconds: tolerance,
          ...(now === undefined ? {} : { now }),
        });
        out.result(
          { valid: true, event },
          `${out.green("valid")} ${event.type} ${event.event} ${event.id}${event.known ? "" : out.dim(" (not in the event catalog)")}`,
        );
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        invalid++;
        out.result(
          { valid: false, code: error.code, message: error.message },
          `${out.red("invalid")} ${error.code}: ${error.message}`,
        );
      }
    }
    if (deliveries.length > 1) out.line(`${deliveries.length - invalid} of ${deliveries.length} deliveries valid`);
    return invalid === 0 ? 0 : 1;
  },
};
