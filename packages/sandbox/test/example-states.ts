// The spec's request examples as calls, and for each operation a state of the sandbox where its examples apply,
// built over HTTP (the spec's own operations, the sandbox-only wallet route). Shared by spec-examples.test.ts
// (the examples themselves) and code-samples.test.ts (the reference's TypeScript samples made from them).
import { readSandboxSpec } from "@exchange-kit/openapi";
import { type Api, createCustomer, verifiedBank, verifiedCustomer } from "./helpers.js";

type Json = any;
// The sandbox's spec (the published bundle with its overlay): the same examples as openapi/, and the query
// parameters only the sandbox names (`x-sandbox-parameters`).
const spec: Json = readSandboxSpec();

function deref(value: Json): Json {
  let v = value;
  while (v && typeof v === "object" && typeof v.$ref === "string") {
    v = v.$ref
      .slice(2)
      .split("/")
      .reduce((node: Json, key: string) => node?.[key], spec);
  }
  return v;
}

export interface ExampleCall {
  operationId: string;
  example: string;
  method: string;
  path: string;
  pathParams: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
}

/** One call per request body example; one call with the parameter examples when there is no body. */
function exampleCalls(): ExampleCall[] {
  const calls: ExampleCall[] = [];
  for (const [path, item] of Object.entries<Json>(spec.paths)) {
    for (const method of ["get", "post", "patch", "put", "delete"]) {
      const op = item[method];
      if (!op) continue;
      const pathParams: Record<string, unknown> = {};
      const query: Record<string, unknown> = {};
      for (const raw of [...(op.parameters ?? []), ...(op["x-sandbox-parameters"] ?? [])]) {
        const p = deref(raw);
        if (p.example === undefined) continue;
        (p.in === "path" ? pathParams : query)[p.name] = p.example;
      }
      const common = { operationId: op.operationId, method: method.toUpperCase(), path, pathParams, query };
      const examples = op.requestBody ? (deref(op.requestBody).content["application/json"].examples ?? {}) : {};
      const names = Object.keys(examples);
      if (names.length === 0) calls.push({ ...common, example: "parameters", body: undefined });
      for (const name of names) calls.push({ ...common, example: name, body: deref(examples[name]).value });
    }
  }
  return calls;
}

export const CALLS = exampleCalls();
export const ID_MEMBERS = [
  "customer_id",
  "bank_id",
  "quotation_id",
  "payin_id",
  "payout_id",
  "wallet_id",
  "remitter_id",
];

/** The example's request with its IDs replaced by `ids` (by member or parameter name). */
export async function send(api: Api, operationId: string, ids: Record<string, unknown> = {}, example?: string) {
  const call = CALLS.find((c) => c.operationId === operationId && (example === undefined || c.example === example));
  if (!call) throw new Error(`no example call for ${operationId} ${example ?? ""}`);
  const swap = (values: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(values).map(([k, v]) => [k, ID_MEMBERS.includes(k) && ids[k] !== undefined ? ids[k] : v]),
    );
  const pathParams = swap(call.pathParams);
  const path = call.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(String(pathParams[name])));
  const query = swap(call.query) as Record<string, string | number>;
  return api.request(call.method, path, { query, ...(call.body === undefined ? {} : { body: swap(call.body) }) });
}

async function ok(api: Api, operationId: string, ids: Record<string, unknown> = {}, example?: string) {
  const res = await send(api, operationId, ids, example);
  if (res.status !== 200) throw new Error(`${operationId} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

// ---- states: each returns the IDs the example's operation needs ----

export type Ids = Record<string, unknown>;
export type State = (api: Api) => Promise<Ids>;

const none: State = async () => ({});
const customer: State = async (api) => ({ customer_id: (await createCustomer(api)).id });
const verified: State = async (api) => ({ customer_id: (await verifiedCustomer(api)).id });
const withBank: State = async (api) => {
  const { id } = await verifiedCustomer(api);
  return { customer_id: id, bank_id: (await verifiedBank(api, id)).id };
};
const withWallet: State = async (api) => {
  const { id } = await createCustomer(api);
  const wallet = await api.ok("POST", "/cms/api/v1/customer/wallet/create", {
    customer_id: id,
    wallet_address: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
    network: "Tron",
    label: "main",
  });
  return { customer_id: id, wallet_id: wallet.id };
};
const withRemitter: State = async (api) => ({
  ...(await withBank(api)),
  remitter_id: (await ok(api, "createKycRemitter")).id,
});
const payinQuotation: State = async (api) => {
  const ids = await withBank(api);
  return { ...ids, quotation_id: (await ok(api, "createPayinQuotation", ids)).id };
};
const payin: State = async (api) => {
  const ids = await payinQuotation(api);
  return { ...ids, payin_id: (await ok(api, "initiatePayin", ids)).id };
};
const payoutQuotation: State = async (api) => {
  const ids = await withBank(api);
  return { ...ids, quotation_id: (await ok(api, "createPayoutQuotation", ids, "byReceivingAmount")).id };
};
const payout: State = async (api) => {
  const ids = await payoutQuotation(api);
  return { ...ids, payout_id: (await ok(api, "initiatePayout", ids)).id };
};
/** The customer the example names by reference (the beneficiary of a payout-only onboarding). */
const byReference =
  (reference: string, country: string): State =>
  async (api) => ({
    customer_id: (await createCustomer(api, { client_reference_id: reference, alpha_3_country_code: country })).id,
  });
const inCountry =
  (country: string, extra: Record<string, unknown> = {}): State =>
  async (api) => ({
    customer_id: (await createCustomer(api, { alpha_3_country_code: country, ...extra })).id,
  });
/** A customer whose KYC was submitted and has its outcome (updates apply to existing KYC). */
const withKyc: State = verified;

export const STATES: Record<string, State> = {
  createCustomer: none,
  listCustomers: customer,
  getCustomer: customer,
  getKycConfiguration: customer,
  addKycData: customer,
  updateKycSelfie: withKyc,
  updateKycTaxInfo: withKyc,
  updateKycDocumentInfo: withKyc,
  addPayoutSenderKycData: byReference("benef-000457", "IND"),
  createKycRemitter: none,
  createBankAccount: verified,
  listBankAccounts: withBank,
  getBankAccount: withBank,
  deleteBankAccount: withBank,
  // The bank link flow is for VERIFIED customers in the USA (where dob is required).
  generateBankLink: async (api) => ({
    customer_id: (await verifiedCustomer(api, { alpha_3_country_code: "USA", dob: "1990-04-12" })).id,
  }),
  getWallet: withWallet,
  deleteWallet: withWallet,
  getPayinConfiguration: none,
  getPayinLimits: verified,
  fetchPayinRate: none,
  createPayinQuotation: withBank,
  getPayinQuotation: payinQuotation,
  initiatePayin: payinQuotation,
  listPayinHistory: none,
  savePayinEdd: verified,
  listPayinEdd: verified,
  getPayin: payin,
  listPrefundedPayoutHistory: none,
  getPrefundedPayoutConfiguration: none,
  createPayoutQuotation: withBank,
  createRemittancePayoutQuotation: withRemitter,
  getPayoutConfiguration: none,
  getPayoutLimits: verified,
  fetchPayoutRate: none,
  getPayoutQuotation: payoutQuotation,
  initiatePayout: payoutQuotation,
  listPayoutHistory: none,
  savePayoutEdd: verified,
  listPayoutEdd: verified,
  getPayout: payout,
  registerWebhook: none,
};
/** Examples whose state depends on the example itself (the payout method decides the country). */
export const EXAMPLE_STATES: Record<string, State> = {
  "createBankAccountForPayout sepa": inCountry("DEU"),
  "createBankAccountForPayout pix": inCountry("BRA"),
};

/** The state an example call needs. */
export function stateOf(call: Pick<ExampleCall, "operationId" | "example">): State {
  const state = EXAMPLE_STATES[`${call.operationId} ${call.example}`] ?? STATES[call.operationId];
  if (!state) throw new Error(`no state for ${call.operationId} ${call.example}`);
  return state;
}
