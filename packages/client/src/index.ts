// The whole public API of @exchange-kit/client.
export { createExchangeClient } from "./client.js";
export type { ExchangeClient, ExchangeClientOptions, RawRequestOptions, RequestMethod } from "./client.js";
export { createSigningMiddleware } from "./signing-middleware.js";
export type { SigningMiddlewareOptions } from "./signing-middleware.js";
export {
  ExchangeAbortError,
  ExchangeAmbiguousResultError,
  ExchangeApiError,
  ExchangeConfigurationError,
  ExchangeError,
  ExchangeNetworkError,
  ExchangeOrderNotFoundError,
  ExchangeRedirectError,
  ExchangeResponseError,
  ExchangeResponseTooLargeError,
  ExchangeTimeoutError,
  ExchangeValidationError,
  ExchangeWaitTimeoutError,
  QuotationExpiredError,
  isExchangeApiError,
} from "./errors.js";
export type { ErrorAction, FieldErrors, OperationRef, Outcome } from "./errors.js";
export { checkQuotation } from "./quotation.js";
export { listOperations } from "./operations.js";
export type { OperationInfo } from "./operations.js";
export type { Logger, LogLevel } from "./logger.js";
export type { Hooks, HttpMethod, RequestEvent, RequestOptions, ResponseEvent, RetryEvent } from "./transport-types.js";
export type { WaitOptions } from "./wait-for.js";
export type {
  ArgsOf,
  BodyOf,
  DataOf,
  Deleted,
  DeletedByEarlierAttempt,
  InitiatedOrder,
  ItemOf,
  ListMethod,
  OperationId,
  OptionsOf,
  Page,
  PageMethod,
  AcceptUndefined,
  PathArgsOf,
  QueryOf,
  QuotationLike,
  QuotationOption,
  ResourceMethod,
} from "./resource-types.js";
export type { ResourceHelpers, Resources } from "./resource-groups.js";
export type { ErrCode, IdempotencyClass } from "./spec.js";
export type {
  BanksResource,
  CustomersResource,
  GeneratedResources,
  KycResource,
  OrganizationResource,
  PayinsResource,
  PayoutsResource,
  WalletsResource,
} from "./generated/resources/index.js";
