// The public API of @exchange-kit/sandbox.
export { createSandbox } from "./sandbox.js";
export type {
  Sandbox,
  SandboxClockHandle,
  SandboxDashboardLink,
  SandboxEvent,
  SandboxOptions,
  SandboxOrganization,
  SandboxOrganizationOptions,
} from "./sandbox.js";
export type { SandboxLogger } from "./logger.js";
export { createContractChecker } from "./spec/contract-check.js";
export type {
  ContractChecker,
  ContractCheckerOptions,
  ContractViolation,
  ExchangeRequest,
  ExchangeResponse,
} from "./spec/contract-check.js";
export type { ExchangeHeaders } from "./spec/contract-operations.js";
export { transitionPath } from "./record-kinds.js";
export { DatabaseError } from "./store/database.js";
export type { DatabaseProblem, Durability } from "./store/database.js";
export type { RetryPolicy } from "./webhooks/delivery.js";
export type { LoggedBody, RequestLogEntry } from "./request-log/entry.js";
export type { SandboxRequestLogOptions } from "./request-log/options.js";
export { REQUEST_FAULTS, WEBHOOK_FAULTS } from "./faults/fault-kinds.js";
export type { FaultKind, RequestFaultKind, WebhookFaultKind } from "./faults/fault-kinds.js";
export type { ChaosOptions } from "./faults/chaos.js";
