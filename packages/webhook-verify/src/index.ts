// The core entry: verification, events, the router, deduplication, the inbox and the Fetch adapter.
// No Node built-ins and no zod here, so it runs on every runtime.
export { verifyWebhook } from "./verify.js";
export type { VerificationSettings, VerifyWebhookOptions } from "./verify.js";
export { signTestWebhook } from "./sign-test-webhook.js";
export type { SignedTestWebhook, SignTestWebhookOptions } from "./sign-test-webhook.js";
export { WebhookVerificationError } from "./errors.js";
export type { WebhookVerificationErrorCode } from "./errors.js";
export type { WebhookCredential, WebhookSecrets } from "./credentials.js";
export type { WebhookHeaders } from "./headers.js";
export type { WebhookBody } from "./verify.js";
export type { EventValidator } from "./validate.js";
export type {
  BankEvent,
  BankFailedEvent,
  BankFailureReason,
  BankVerifiedEvent,
  CustomerEvent,
  CustomerFailedEvent,
  CustomerFailureReason,
  CustomerVerifiedEvent,
  EddEvent,
  EddFailedEvent,
  EddVerifiedEvent,
  OpenMetadata,
  PayinEvent,
  PayinFailedEvent,
  PayinOnHoldEvent,
  PayinRefundedEvent,
  PayinRefundInitiatedEvent,
  PayinRefundReason,
  PayinSuccessEvent,
  PayoutEvent,
  PayoutFailedEvent,
  PayoutInReviewEvent,
  PayoutRefundedEvent,
  PayoutSuccessEvent,
  ReceivedWebhookEvent,
  UnknownWebhookEvent,
  WebhookEvent,
  WebhookEventOf,
} from "./events.js";
export { createDeduplicator } from "./deduplicator.js";
export type {
  ClaimedDelivery,
  DedupResult,
  Deduplicator,
  DeduplicatorOptions,
  DeliveryClaim,
} from "./deduplicator.js";
export type { DedupKey, DedupKeyStrategy } from "./dedup-key.js";
export type { ClaimState, DedupStore } from "./dedup-store.js";
export { DedupStoreError, InboxStoreError, LeaseLostError } from "./store-errors.js";
export { memoryStore } from "./memory-store.js";
export type { MemoryStoreOptions } from "./memory-store.js";
export { createInbox } from "./inbox.js";
export type { Inbox, InboxContext, InboxHandler, InboxOptions, ParkedEvent } from "./inbox.js";
export type { InboxEntry, InboxStore, ParkedRecord } from "./inbox-store.js";
export { EventParkedError } from "./inbox-errors.js";
export { memoryInbox } from "./memory-inbox.js";
export type { MemoryInboxOptions } from "./memory-inbox.js";
export { createWebhookRouter } from "./router.js";
export type {
  WebhookEventStatus,
  WebhookEventType,
  WebhookRouteHandler,
  WebhookRouter,
  WebhookRouterContext,
} from "./router.js";
export { WebhookRouteError } from "./router-errors.js";
export { createWebhookHandler } from "./fetch-handler.js";
export type { FetchWebhookHandler, WebhookContext } from "./fetch-handler.js";
export type { WebhookEventHandler, WebhookHandlerOptions } from "./delivery.js";
