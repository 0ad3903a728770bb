// Every route: the spec's operations (by operationId, so the spec decides method and path) plus the
// sandbox-only ones (wallet add/list, the bank link page and the /_sandbox control API).
import * as banks from "./api/banks.js";
import * as customers from "./api/customers.js";
import * as kyc from "./api/kyc.js";
import { registerWebhook } from "./api/organization.js";
import * as payins from "./api/payins.js";
import * as payouts from "./api/payouts.js";
import * as wallets from "./api/wallets.js";
import * as control from "./control/control-api.js";
import { listRequests } from "./request-log/control-route.js";
import type { RequestLog } from "./request-log/request-log.js";
import { faultControl } from "./faults/fault-control.js";
import type { FaultPlan } from "./faults/fault-plan.js";
import type { OperationId } from "@exchange-kit/types";
import {
  HANDLER_CHECKED_COMBINATORS,
  type OperationHandler,
  type PathParamNames,
  type SandboxHandler,
} from "./api/validated-request.js";
import type { SandboxDomain } from "./domain/sandbox-domain.js";
import { RECORD_KINDS, RECORD_TYPES } from "./record-kinds.js";
import type { Handler, RouteDefinition } from "./api/route.js";
import type { ValidationOptions } from "./spec/request-validation.js";
import { operation, operations } from "./spec/openapi.js";

/**
 * The handler of every operation, each typed with its own operation's request; an operation of the spec without
 * one fails at startup (and in the tests).
 */
const OPERATION_HANDLERS: { [Id in OperationId]: OperationHandler<Id> } = {
  createCustomer: customers.createCustomer,
  listCustomers: customers.listCustomers,
  getCustomer: customers.getCustomer,
  getKycConfiguration: kyc.getKycConfiguration,
  addKycData: kyc.addKycData,
  updateKycSelfie: kyc.updateKycSelfie,
  updateKycTaxInfo: kyc.updateKycTaxInfo,
  updateKycDocumentInfo: kyc.updateKycDocumentInfo,
  addPayoutSenderKycData: kyc.addPayoutSenderKycData,
  createKycRemitter: kyc.createKycRemitter,
  createBankAccount: banks.createBankAccount,
  listBankAccounts: banks.listBankAccounts,
  getBankAccount: banks.getBankAccount,
  deleteBankAccount: banks.deleteBankAccount,
  createBankAccountForPayout: banks.createBankAccountForPayout,
  generateBankLink: banks.generateBankLink,
  getWallet: wallets.getWallet,
  deleteWallet: wallets.deleteWallet,
  getPayinConfiguration: payins.payinConfiguration,
  getPayinLimits: payins.getPayinLimits,
  fetchPayinRate: payins.fetchPayinRate,
  createPayinQuotation: payins.createPayinQuotation,
  getPayinQuotation: payins.getPayinQuotation,
  initiatePayin: payins.initiatePayin,
  listPayinHistory: payins.listPayinHistory,
  savePayinEdd: payins.savePayinEdd,
  listPayinEdd: payins.listPayinEdd,
  getPayin: payins.getPayin,
  listPrefundedPayoutHistory: payouts.listPayoutHistory,
  getPrefundedPayoutConfiguration: payouts.payoutConfiguration,
  createPayoutQuotation: payouts.createPayoutQuotation,
  createRemittancePayoutQuotation: payouts.createRemittancePayoutQuotation,
  getPayoutConfiguration: payouts.payoutConfiguration,
  getPayoutLimits: payouts.getPayoutLimits,
  fetchPayoutRate: payouts.fetchPayoutRate,
  getPayoutQuotation: payouts.getPayoutQuotation,
  initiatePayout: payouts.initiatePayout,
  listPayoutHistory: payouts.listPayoutHistory,
  savePayoutEdd: payouts.savePayoutEdd,
  listPayoutEdd: payouts.listPayoutEdd,
  getPayout: payouts.getPayout,
  registerWebhook,
};

/** How the server validates an operation's request where the sandbox departs from the spec's schemas. */
function validationOf(id: OperationId): ValidationOptions | undefined {
  // The body combinators whose rules the handler checks itself, with the document's codes (validated-request.ts).
  const combinator = (HANDLER_CHECKED_COMBINATORS as Partial<Record<OperationId, string>>)[id];
  if (combinator) return { ignoredSchemaPaths: [combinator] };
  return undefined;
}

function isOperationId(id: string): id is OperationId {
  return Object.hasOwn(OPERATION_HANDLERS, id);
}

/**
 * The route of an operation. Its handler is typed with the request the operation's schemas let through; the
 * server hands it any parsed request, which is that request once validation (attached here) has passed.
 */
function operationRoute<Id extends OperationId>(id: Id): RouteDefinition<SandboxDomain> {
  const handler: OperationHandler<Id> = OPERATION_HANDLERS[id];
  const op = operation(id);
  return {
    method: op.method,
    path: op.path,
    handler: handler as unknown as Handler<SandboxDomain>,
    operation: op,
    validation: validationOf(id),
  };
}

/** A sandbox-only route: its handler reads the values its path template names, as strings. */
function sandboxRoute<Path extends string>(
  method: string,
  path: Path,
  handler: SandboxHandler<PathParamNames<Path>>,
  isPublic = false,
): RouteDefinition<SandboxDomain> {
  return { method, path, handler: handler as unknown as Handler<SandboxDomain>, public: isPublic };
}

/** Paths the document names without publishing them ("add wallet and list wallets"): sandbox-only guesses. */
export const SANDBOX_ONLY_PATHS = {
  addWallet: "/cms/api/v1/customer/wallet/create",
  listWallets: "/cms/api/v1/customer/wallet/list/{customer_id}",
} as const;

/** The features whose control routes are served: each one's routes only when it is given. */
export interface RouteFeatures {
  /** GET /_sandbox/requests reads it. */
  requestLog?: RequestLog;
  /** POST, GET and DELETE /_sandbox/faults arm, list and clear it. */
  faults?: FaultPlan;
}

/** Every route; a feature's control routes with the feature they drive. */
export function buildRoutes({ requestLog, faults }: RouteFeatures = {}): Array<RouteDefinition<SandboxDomain>> {
  const routes: Array<RouteDefinition<SandboxDomain>> = [];
  for (const op of operations) {
    if (!isOperationId(op.operationId)) throw new Error(`No handler for operation ${op.operationId}`);
    routes.push(operationRoute(op.operationId));
  }
  routes.push(
    sandboxRoute("POST", SANDBOX_ONLY_PATHS.addWallet, wallets.addWallet),
    sandboxRoute("GET", SANDBOX_ONLY_PATHS.listWallets, wallets.listWallets),
    sandboxRoute("GET", "/_sandbox/bank-link/{bank_id}", banks.bankLinkPage, true),
    sandboxRoute("GET", "/_sandbox/clock", control.getClock),
    sandboxRoute("POST", "/_sandbox/clock/advance", control.advanceClock),
    sandboxRoute("GET", "/_sandbox/settings", control.getSettings),
    sandboxRoute("POST", "/_sandbox/settings", control.updateSettings),
    sandboxRoute("GET", "/_sandbox/events", control.listEvents),
    sandboxRoute("POST", "/_sandbox/events/{event_id}/redeliver", control.redeliverEvent),
    // One transition route per kind of record in the registry: /_sandbox/customers/{id}/transition, ...
    ...RECORD_TYPES.map((type) =>
      sandboxRoute("POST", `/_sandbox/${RECORD_KINDS[type].collection}/{id}/transition`, control.transition(type)),
    ),
  );
  if (faults) {
    const plan = faultControl(faults);
    routes.push(
      sandboxRoute("POST", "/_sandbox/faults", plan.arm),
      sandboxRoute("GET", "/_sandbox/faults", plan.list),
      sandboxRoute("DELETE", "/_sandbox/faults", plan.clear),
    );
  }
  if (requestLog) routes.push({ ...sandboxRoute("GET", "/_sandbox/requests", listRequests(requestLog)), writes: true });
  return routes;
}
