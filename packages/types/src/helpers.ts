// Hand-written type helpers over the generated types. Their names are reserved in scripts/lib/names.ts so a
// component alias never takes one.
import type { ErrorEnvelope, SuccessEnvelope, WebhookEvent } from "./generated/aliases.js";
import type { operations } from "./generated/openapi.js";
import type { OperationId } from "./generated/operations.js";

/** A successful response whose `data` is `T`: `{ status: true, message, data: T }`. */
export type Envelope<T> = Omit<SuccessEnvelope, "data"> & { data: T };

/** Any response body of an operation returning `T`: the success envelope or the error envelope. */
export type ApiResponse<T> = Envelope<T> | ErrorEnvelope;

type JsonBody<R> = R extends { content: { "application/json": infer B } } ? B : never;

/** The JSON request body of an operation (`never` when it has none). */
export type OperationRequestBody<Id extends OperationId> = JsonBody<NonNullable<operations[Id]["requestBody"]>>;

/** The responses of an operation, by status code (openapi-typescript's shape). */
export type OperationResponses<Id extends OperationId> = operations[Id]["responses"];

/** The `data` of an operation's 200 response. */
export type OperationSuccessData<Id extends OperationId> =
  JsonBody<OperationResponses<Id>[200 & keyof OperationResponses<Id>]> extends { data: infer D } ? D : never;

/** Any JSON error body an operation declares (every status but 200). */
export type OperationErrorBody<Id extends OperationId> = {
  [S in keyof OperationResponses<Id>]: S extends 200 ? never : JsonBody<OperationResponses<Id>[S]>;
}[keyof OperationResponses<Id>];

/** The path parameters of an operation (`never` when it has none). */
export type OperationPathParams<Id extends OperationId> = NonNullable<operations[Id]["parameters"]["path"]>;

/** The query parameters of an operation (`never` when it has none). */
export type OperationQueryParams<Id extends OperationId> = NonNullable<operations[Id]["parameters"]["query"]>;

/** The `type` of any webhook event (CUSTOMER, BANK, ...). */
export type WebhookEventType = WebhookEvent["type"];

/** The webhook event of one `type` (and, optionally, one `event`). */
export type WebhookEventOf<
  T extends WebhookEventType,
  E extends WebhookEvent["event"] = WebhookEvent["event"],
> = Extract<WebhookEvent, { type: T; event: E }>;
