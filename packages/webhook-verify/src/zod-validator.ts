import { WebhookEventSchema } from "@exchange-kit/types/zod";
import type { ReceivedWebhookEvent, WebhookEvent } from "./events.js";
import { checkEnvelope, classify, type EventValidator, unlisted } from "./validate.js";
import { verifyWebhook, type VerifyWebhookOptions } from "./verify.js";

/**
 * Validates catalog events with the spec's generated zod schema
 * (`WebhookEventSchema` of `@exchange-kit/types/zod`): every format too (UUID,
 * date-time timestamp, rfi_link URL). Types and statuses the catalog does not
 * know stay unknown events, as with the built-in validator.
 *
 * @example
 * const event = await verifyWebhook({ body, headers, apiKey, apiSecret, validate: zodValidator });
 */
export const zodValidator: EventValidator = (json, { strict }) => {
  checkEnvelope(json);
  const notListed = unlisted(json.type, json.event);
  if (notListed !== undefined) return classify(json, notListed, strict);
  const result = WebhookEventSchema.safeParse(json);
  const problem = result.success
    ? undefined
    : result.error.issues.map((issue) => `${issue.path.join(".") || "event"}: ${issue.message}`).join("; ");
  return classify(json, problem === undefined ? undefined : `${json.type} ${json.event}: ${problem}`, strict);
};

/**
 * `verifyWebhook` with `zodValidator`.
 *
 * @example
 * const event = await verifyWebhookWithZod({ body: rawBody, headers, apiKey, apiSecret, strict: true });
 */
export function verifyWebhookWithZod(options: VerifyWebhookOptions & { strict: true }): Promise<WebhookEvent>;
export function verifyWebhookWithZod(options: VerifyWebhookOptions): Promise<ReceivedWebhookEvent>;
export function verifyWebhookWithZod(options: VerifyWebhookOptions): Promise<ReceivedWebhookEvent> {
  return verifyWebhook({ ...options, validate: zodValidator });
}
