// exchange-kit verify: checks a saved webhook delivery (headers + raw body) with the receiver's rules.
import { verifyWebhook, WebhookVerificationError } from "@exchange-kit/webhook-verify";
import { type Credentials, requireCredentials } from "../credentials.js";
import { readDeliveries, type SavedDelivery } from "../deliveries.js";
import { type Output, readUsageFile, UsageError } from "../output.js";
import type { Command, CommandContext } from "./command.js";

/** The deliveries to check: every one in --delivery's file, or the one --body-file, --timestamp and --signature make. */
async function deliveriesOf(values: CommandContext["values"]): Promise<SavedDelivery[]> {
  if (values.delivery !== undefined) {
    const file = String(values.delivery);
    return readDeliveries(await readUsageFile(file, "--delivery"), file);
  }
  if (values["body-file"] === undefined || values.timestamp === undefined || values.signature === undefined) {
    throw new UsageError("pass --delivery FILE, or --body-file with --timestamp and --signature");
  }
  const headers = { "X-TIMESTAMP": String(values.timestamp), "X-SIGNATURE": String(values.signature) };
  return [{ headers, body: await readUsageFile(String(values["body-file"]), "--body-file") }];
}

/** --tolerance: seconds, 0 or more; 300 when absent. */
export function toleranceFlag(value: string | boolean | undefined): number {
  const tolerance = value === undefined ? 300 : Number(value);
  if (!Number.isFinite(tolerance) || tolerance < 0)
    throw new UsageError("--tolerance must be a number of seconds >= 0");
  return tolerance;
}

/**
 * The time a delivery's timestamp is judged at: its own X-TIMESTAMP (any case of the name) with
 * --at-delivery-time when that is Unix seconds; otherwise undefined, which is now.
 *
 * @example
 * judgedAt({ "x-timestamp": "1700000000" }, true); // 1700000000
 */
export function judgedAt(headers: Record<string, string>, atDeliveryTime: boolean): number | undefined {
  if (!atDeliveryTime) return undefined;
  const stamp = Object.entries(headers).find(([name]) => name.toLowerCase() === "x-timestamp")?.[1];
  return stamp !== undefined && /^\d+$/.test(stamp) ? Number(stamp) : undefined;
}

/** Checks one delivery and prints the verdict; true when it is valid. */
async function checkDelivery(
  { headers, body }: SavedDelivery,
  rules: Credentials & { toleranceSeconds: number; now: number | undefined },
  out: Output,
): Promise<boolean> {
  const { now, ...options } = rules;
  try {
    const event = await verifyWebhook({ body, headers, ...options, ...(now === undefined ? {} : { now }) });
    out.result(
      { valid: true, event },
      `${out.green("valid")} ${event.type} ${event.event} ${event.id}${event.known ? "" : out.dim(" (not in the event catalog)")}`,
    );
    return true;
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    out.result(
      { valid: false, code: error.code, message: error.message },
      `${out.red("invalid")} ${error.code}: ${error.message}`,
    );
    return false;
  }
}

export const verify: Command = {
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
    const deliveries = await deliveriesOf(values);
    const toleranceSeconds = toleranceFlag(values.tolerance);
    let invalid = 0;
    for (const delivery of deliveries) {
      const now = judgedAt(delivery.headers, values["at-delivery-time"] === true);
      if (!(await checkDelivery(delivery, { ...credentials, toleranceSeconds, now }, out))) invalid++;
    }
    if (deliveries.length > 1) out.line(`${deliveries.length - invalid} of ${deliveries.length} deliveries valid`);
    return invalid === 0 ? 0 : 1;
  },
};
