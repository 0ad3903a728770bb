// Webhook registration: one URL per organization receives every event type.
import type { HandlerResult } from "./route.js";
import type { OperationContext } from "./validated-request.js";

/**
 * Registers the organization's webhook URL. The service requires https://; the sandbox's spec also takes http:// on
 * the loopback interface (its overlay, openapi/overlays/sandbox.yaml), so a test receiver needs no certificate.
 */
export async function registerWebhook(ctx: OperationContext<"registerWebhook">): Promise<HandlerResult> {
  const url = ctx.body.webhook_url;
  const now = (await ctx.domain.clock(ctx.org.id)).iso();
  await ctx.domain.store.orgSettings.put({ id: ctx.org.id, org: ctx.org.id, webhook_url: url, updated_at: now });
  return { message: "Webhook registered successfully", data: { webhook_url: url, updated_at: now } };
}
