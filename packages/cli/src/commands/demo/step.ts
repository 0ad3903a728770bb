// A step of the demo (name, action, check) and what the steps share. Steps run in order and the demo stops at the
// first failure, so a step reads in the state only what the steps before it have set.
import type { Server } from "node:http";
import type { DataOf, ExchangeClient, ItemOf } from "@exchange-kit/client";
import type { Sandbox } from "@exchange-kit/sandbox";
import type { ReceivedWebhookEvent } from "@exchange-kit/webhook-verify";
import type { Receiver } from "./receiver.js";

export interface DemoState {
  /** Makes this run's references unique. */
  readonly run: string;
  sandbox: Sandbox;
  receiver: Receiver;
  server: Server;
  client: ExchangeClient;
  customer: DataOf<"createCustomer">;
  kycConfiguration: DataOf<"getKycConfiguration">;
  bank: DataOf<"createBankAccount">;
  payinQuote: DataOf<"createPayinQuotation">;
  payin: ItemOf<"listPayinHistory">;
  payoutQuote: DataOf<"createPayoutQuotation">;
  payout: ItemOf<"listPayoutHistory">;
  payoutEvent: ReceivedWebhookEvent;
}

export interface DemoStep<T = unknown> {
  /** The line the trace prints. */
  name: string;
  /** Does it: a call through the client, a server started, a webhook awaited. Keeps what later steps need. */
  action: (state: DemoState) => Promise<T>;
  /** Checks the result against the interface document (throws when it differs); returns the trace's detail. */
  check: (value: T, state: DemoState) => string;
}

/** A step in a table of steps whose results differ in type. */
export function defineStep<T>(step: DemoStep<T>): DemoStep {
  return step as DemoStep;
}

/** Fails the step with `message` when `condition` does not hold. */
export function ensure(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

/** This run's client references, e.g. `demo-payin-m1abc`. */
export const payinRef = (state: DemoState): string => `demo-payin-${state.run}`;
export const payoutRef = (state: DemoState): string => `demo-payout-${state.run}`;
