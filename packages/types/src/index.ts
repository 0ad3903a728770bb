// The "." entry: the types generated from the spec, the operation index, the route table and a few helpers. No zod
// here: the zod schemas are the "./zod" entry, so importing types never loads zod.

/** openapi-typescript's output: `paths`, `webhooks`, `components`, `operations`, `$defs`. */
export type * from "./generated/openapi.js";
/** A readable alias per component schema (`Customer`, `BankAccount`, ...), `WebhookEvent`. */
export type * from "./generated/aliases.js";
export { errCodes } from "./generated/err-codes.js";
export { operationIndex } from "./generated/operations.js";
/** The lean route table a client bundles: `[tag, path, method, pathParams, queryParams, hasBody, idempotency]` by operationId. */
export { operationRoutes } from "./generated/routes.js";
export type { OperationRoute, OperationRoutes } from "./generated/routes.js";
export type {
  IdempotencyClass,
  OperationId,
  OperationIndex,
  OperationIndexEntry,
  OperationMethod,
  OperationPath,
  OperationTag,
  PathItemMethod,
} from "./generated/operations.js";
/**
 * The spec's vocabulary as values: webhook event types, the events of each type, each event's metadata rules (the
 * failure, refund and review reasons among them) and each record's enumerated statuses.
 */
export { recordStatuses, webhookEventsByType, webhookEventTypes, webhookMetadataRules } from "./generated/catalog.js";
export type {
  RecordStatus,
  RecordWithStatus,
  WebhookEventName,
  WebhookMetadataRule,
  WebhookMetadataValue,
} from "./generated/catalog.js";
export { isErrCode } from "./err-codes.js";
export type {
  ApiResponse,
  Envelope,
  OperationErrorBody,
  OperationPathParams,
  OperationQueryParams,
  OperationRequestBody,
  OperationResponses,
  OperationSuccessData,
  WebhookEventOf,
  WebhookEventType,
} from "./helpers.js";
