// Webhook registration: one URL per organization receives every event type.
import type { HandlerResult } from "../http/route.js";
import type { JsonSchema } from "../spec/openapi.js";
import type { OperationContext } from "./validated-request.js";

/**
 * The spec requires https://. The sandbox also accepts http:// on the loopback interface (127.0.0.1, localhost,
 * [::1]) so a test receiver needs no certificate; this relaxation is the sandbox's only deviation from the spec.
 */
export const WEBHOOK_URL_PATTERN = "^(https://|http://(127\\.0\\.0\\.1|localhost|\\[::1\\])(:\\d+)?(/|$))";

export function allowLoopbackWebhooks(schema: JsonSchema): JsonSchema {
  const properties = { ...(schema.properties as Record<string, JsonSchema>) };
  properties.webhook_url = { ...properties.webhook_url, pattern: WEBHOOK_URL_PATTERN };
  return { ...schema, properties };
}

export function registerWebhook(ctx: OperationContext<"registerWebhook">): HandlerResult {
  const url = ctx.body.webhook_url;
  const now = ctx.domain.clock(ctx.org.id).iso();
  ctx.domain.store.orgSettings.put({ id: ctx.org.id, org: ctx.org.id, webhook_url: url, updated_at: now });
  return { message: "Webhook registered successfully", data: { webhook_url: url, updated_at: now } };
}
