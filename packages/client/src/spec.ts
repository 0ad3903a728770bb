// The one place the client touches @exchange-kit/types, so a change in how that package names its exports is
// a change here only.
export { operationRoutes } from "@exchange-kit/types";
export type {
  ErrCode,
  IdempotencyClass,
  OperationIndex,
  OperationRoute,
  operations,
  paths,
  RecordStatus,
  WebhookEventName,
} from "@exchange-kit/types";
