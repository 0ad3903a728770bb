// Types of client-run.mjs for the TypeScript tests that import it.
import type { createSandbox, FaultKind } from "../../src/index.js";

export interface SoakOptions {
  operations: number;
  chaos: { rate: number; seed: number; maxDelayMs?: number; faults?: readonly FaultKind[] };
  workers?: number;
  retryBaseMs?: number;
}

export interface WebhookFigures {
  events: number;
  handledOnce: number;
  handledTwice: number;
  missed: number;
  deliveries: number;
}

export interface ClientSoakFigures {
  seed: number;
  rate: number;
  runMs: number;
  requests: number;
  clientRetries: number;
  applicationRetries: number;
  operations: { onboard: number; quote: number; initiate: number; poll: number };
  ambiguousOnboarding: number;
  faultsFired: Record<string, number>;
  faultsFiredTotal: number;
  orders: number;
  duplicates: number;
  lost: number;
  ambiguous: number;
  foundByLookup: number;
  absentByLookup: number;
  unresolved: number;
  initiatesDone: number;
  payoutsWithOneEvent: number;
  payoutsWithOtherCount: number;
  webhooks: WebhookFigures;
}

export function runClientSoak(create: typeof createSandbox, options: SoakOptions): Promise<ClientSoakFigures>;
export function kycBody(customerId: string): Record<string, unknown>;
