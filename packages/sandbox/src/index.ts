// The public API of @exchange-kit/sandbox.
export { createSandbox } from "./sandbox.js";
export type {
  Sandbox,
  SandboxClockHandle,
  SandboxEvent,
  SandboxOptions,
  SandboxOrganization,
  SandboxOrganizationOptions,
} from "./sandbox.js";
export type { SandboxLogger } from "./logger.js";
export { createContractChecker } from "./spec/contract-check.js";
export type { ContractChecker, ContractViolation, ExchangeRequest, ExchangeResponse } from "./spec/contract-check.js";
export type { ExchangeHeaders } from "./spec/contract-operations.js";
export { DatabaseError } from "./store/database.js";
export type { DatabaseProblem, Durability } from "./store/database.js";
export type { RetryPolicy } from "./webhooks/delivery.js";
export { REQUEST_FAULTS, WEBHOOK_FAULTS } from "./faults/fault-kinds.js";
export type { FaultKind, RequestFaultKind, WebhookFaultKind } from "./faults/fault-kinds.js";
export type { ChaosOptions } from "./faults/chaos.js";
