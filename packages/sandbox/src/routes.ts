// Every route: the spec's operations (by operationId, so the spec decides method and path) plus the
// sandbox-only ones (wallet add/list, the bank link page and the /_sandbox control API).
import * as banks from "./api/banks.js";
import * as customers from "./api/customers.js";
import * as kyc from "./api/kyc.js";
import { allowLoopbackWebhooks, registerWebhook } from "./api/organization.js";
import * as payins from "./api/payins.js";
import * as payouts from "./api/payouts.js";
import * as wallets from "./api/wallets.js";
import * as control from "./control/control-api.js";
import type { Domain } from "./domain/domain.js";
import type { Handler, RouteDefinition } from "./http/route.js";
import type { ValidationOptions } from "./spec/request-validation.js";
import { operation, operations } from "./spec/openapi.js";

type H = Handler<Domain>;

/** The handler of every operation of the spec; a missing one fails at startup (and in the tests). */
const OPERATION_HANDLERS: Record<string, H> = {
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

/** Rules a handler checks itself, with the document's codes, instead of the schema's generic answer. */
const VALIDATION: Record<string, ValidationOptions> = {
  // AADHAAR: both images or aadhaar_json → KYC_INVALID_AADHAAR_INPUT; other types: images are required.
  addKycData: { ignoredSchemaPaths: ["#/anyOf"] },
  // Exactly one amount: "not both" is INPUT_MALFORMED, "neither" REQ_FIELD_MISSING naming both.
  createPayoutQuotation: { ignoredSchemaPaths: ["#/oneOf"] },
  createRemittancePayoutQuotation: { ignoredSchemaPaths: ["#/oneOf"] },
  registerWebhook: { patchBodySchema: allowLoopbackWebhooks },
};

/** Paths the document names without publishing them ("add wallet and list wallets"): sandbox-only guesses. */
export const SANDBOX_ONLY_PATHS = {
  addWallet: "/cms/api/v1/customer/wallet/create",
  listWallets: "/cms/api/v1/customer/wallet/list/{customer_id}",
} as const;

export function buildRoutes(): Array<RouteDefinition<Domain>> {
  const routes: Array<RouteDefinition<Domain>> = [];
  for (const op of operations) {
    const handler = OPERATION_HANDLERS[op.operationId];
    if (!handler) throw new Error(`No handler for operation ${op.operationId}`);
    routes.push({
      method: op.method,
      path: op.path,
      handler,
      operation: operation(op.operationId),
      validation: VALIDATION[op.operationId],
    });
  }
  const extra: Array<[string, string, H, boolean?]> = [
    ["POST", SANDBOX_ONLY_PATHS.addWallet, wallets.addWallet],
    ["GET", SANDBOX_ONLY_PATHS.listWallets, wallets.listWallets],
    ["GET", "/_sandbox/bank-link/{bank_id}", banks.bankLinkPage, true],
    ["GET", "/_sandbox/clock", control.getClock],
    ["POST", "/_sandbox/clock/advance", control.advanceClock],
    ["GET", "/_sandbox/settings", control.getSettings],
    ["POST", "/_sandbox/settings", control.updateSettings],
    ["GET", "/_sandbox/events", control.listEvents],
    ["POST", "/_sandbox/events/{event_id}/redeliver", control.redeliverEvent],
    ["POST", "/_sandbox/customers/{id}/transition", control.transition("customers")],
    ["POST", "/_sandbox/banks/{id}/transition", control.transition("banks")],
    ["POST", "/_sandbox/payins/{id}/transition", control.transition("payins")],
    ["POST", "/_sandbox/payouts/{id}/transition", control.transition("payouts")],
    ["POST", "/_sandbox/edd/{id}/transition", control.transition("edd")],
  ];
  for (const [method, path, handler, isPublic] of extra)
    routes.push({ method, path, handler, public: isPublic ?? false });
  return routes;
}
