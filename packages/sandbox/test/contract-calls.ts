// One valid call per operation of the spec, with the records it needs created first: the contract suite runs
// these through the raw signed API (operations.test.ts) and through the typed client (client-contract.test.ts).
import {
  type Api,
  createCustomer,
  kycBody,
  payoutQuotationBody,
  unique,
  verifiedBank,
  verifiedCustomer,
} from "./helpers.js";

/** operationId -> [concrete path, body, query]. */
export type ContractCalls = Record<string, [string, unknown?, Record<string, string>?]>;

export async function contractCalls(api: Api): Promise<ContractCalls> {
  const customer = await verifiedCustomer(api);
  const fresh = await createCustomer(api);
  const usa = await verifiedCustomer(api, { alpha_3_country_code: "USA", dob: "1990-01-01" });
  const bank = await verifiedBank(api, customer.id);
  const spare = await verifiedBank(api, customer.id);
  const wallet = await api.ok("POST", "/cms/api/v1/customer/wallet/create", {
    customer_id: customer.id,
    wallet_address: "0x6666666666666666666666666666666666666666",
    network: "Arbitrum",
    label: "l",
  });
  const spareWallet = await api.ok("POST", "/cms/api/v1/customer/wallet/create", {
    customer_id: customer.id,
    wallet_address: "0x7777777777777777777777777777777777777777",
    network: "Arbitrum",
  });
  const remitter = await api.ok("POST", "/cms/api/v1/kyc/remitter/create", { full_name: "Remitter" });
  const payoutQuote = await api.ok("POST", "/pos/api/v1/payout/quotation", payoutQuotationBody(customer.id, bank.id));
  const payout = await api.ok("POST", "/pos/api/v1/payout/initiate", { quotation_id: payoutQuote.id });
  const payinBody = {
    customer_id: customer.id,
    bank_id: bank.id,
    asset: "usdt",
    fiat: "INR",
    network: "tron",
    payment_method: "IMPS",
    wallet_address: "TXYZa1b2c3d4e5f6g7h8i9j1k2L3M4N5P6",
    sending_amount: "5000",
  };
  const payinQuote = await api.ok("POST", "/pis/api/v1/payin/quotation", payinBody);
  const payin = await api.ok("POST", "/pis/api/v1/payin/initiate", {
    quotation_id: payinQuote.id,
    client_reference_id: "pi",
    transaction_reference_id: "123456789012",
  });
  const kycCustomer = await createCustomer(api);
  await api.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(kycCustomer.id));
  const payoutOnly = await createCustomer(api, { alpha_3_country_code: "BRA" });

  const calls: ContractCalls = {
    createCustomer: [
      "/cms/api/v1/customer/create",
      { client_reference_id: unique("c"), full_name: "New", alpha_3_country_code: "IND" },
    ],
    listCustomers: ["/cms/api/v1/customer/list"],
    getCustomer: [`/cms/api/v1/customer/${customer.id}`],
    getKycConfiguration: [`/cms/api/v1/kyc/configuration/${customer.id}`],
    addKycData: ["/cms/api/v1/kyc/add-kyc-data", kycBody(fresh.id)],
    updateKycSelfie: [
      "/cms/api/v1/kyc/update-selfie-info",
      { customer_id: kycCustomer.id, selfie_url: "https://f.example.com/s.png" },
    ],
    updateKycTaxInfo: ["/cms/api/v1/kyc/update-tax-info", { customer_id: kycCustomer.id, tax_number: "ABCPV7777K" }],
    updateKycDocumentInfo: [
      "/cms/api/v1/kyc/update-document-info",
      {
        customer_id: kycCustomer.id,
        document_type: "AADHAAR",
        document_details: { document_number: unique("A"), additional_data: { aadhaar_json: "{}" } },
      },
    ],
    addPayoutSenderKycData: [
      "/cms/api/v1/kyc/payout/add-sender-kyc-data",
      {
        client_reference_id: payoutOnly.client_reference_id,
        document_type: "GOVT_ID",
        street: "R",
        city: "C",
        postal_code: "1",
      },
    ],
    createKycRemitter: ["/cms/api/v1/kyc/remitter/create", { full_name: "R" }],
    createBankAccount: [
      "/cms/api/v1/bank/create",
      { customer_id: customer.id, bank_account_type: "UPI", identifiers: { vpa: "ops@ybl" } },
    ],
    listBankAccounts: [`/cms/api/v1/bank/list/${customer.id}`],
    getBankAccount: [`/cms/api/v1/bank/${customer.id}/${bank.id}`],
    deleteBankAccount: [`/cms/api/v1/bank/${customer.id}/${spare.id}/delete`],
    createBankAccountForPayout: [
      "/cms/api/v1/bank/payout/create",
      { customer_id: payoutOnly.id, identifiers: { br_cpf: "123" } },
    ],
    generateBankLink: ["/cms/api/v1/bank/generate-link", { customer_id: usa.id }],
    getWallet: [`/cms/api/v1/customer/wallet/${customer.id}/${wallet.id}`],
    deleteWallet: [`/cms/api/v1/customer/wallet/${customer.id}/${spareWallet.id}/delete`],
    getPayinConfiguration: ["/pis/api/v1/payin/configuration"],
    getPayinLimits: [`/pis/api/v1/payin/limits/${customer.id}`],
    fetchPayinRate: ["/pis/api/v1/payin/fetch-rate", undefined, { asset: "usdt", fiat: "INR" }],
    createPayinQuotation: ["/pis/api/v1/payin/quotation", payinBody],
    getPayinQuotation: [`/pis/api/v1/payin/quotation/${payinQuote.id}`],
    initiatePayin: [
      "/pis/api/v1/payin/initiate",
      {
        quotation_id: (await api.ok("POST", "/pis/api/v1/payin/quotation", payinBody)).id,
        client_reference_id: "pi2",
        transaction_reference_id: "223456789012",
      },
    ],
    listPayinHistory: ["/pis/api/v1/payin/history"],
    savePayinEdd: ["/pis/api/v1/payin/edd/save", { customer_id: customer.id }],
    listPayinEdd: ["/pis/api/v1/payin/edd/list"],
    getPayin: [`/pis/api/v1/payin/${payin.id}`],
    listPrefundedPayoutHistory: ["/pos/api/v1/prefunded/payout/history"],
    getPrefundedPayoutConfiguration: ["/pos/api/v1/prefunded/payout/configuration"],
    createPayoutQuotation: ["/pos/api/v1/payout/quotation", payoutQuotationBody(customer.id, bank.id)],
    createRemittancePayoutQuotation: [
      "/pos/api/v1/remittance-payout/quotation",
      { ...payoutQuotationBody(customer.id, bank.id), remitter_id: remitter.id },
    ],
    getPayoutConfiguration: ["/pos/api/v1/payout/configuration"],
    getPayoutLimits: [`/pos/api/v1/payout/limits/${customer.id}`],
    fetchPayoutRate: ["/pos/api/v1/payout/fetch-rate", undefined, { asset: "usdc", fiat: "BRL" }],
    getPayoutQuotation: [`/pos/api/v1/payout/quotation/${payoutQuote.id}`],
    initiatePayout: [
      "/pos/api/v1/payout/initiate",
      {
        quotation_id: (await api.ok("POST", "/pos/api/v1/payout/quotation", payoutQuotationBody(customer.id, bank.id)))
          .id,
      },
    ],
    listPayoutHistory: ["/pos/api/v1/payout/history"],
    savePayoutEdd: ["/pos/api/v1/payout/edd/save", { customer_id: customer.id }],
    listPayoutEdd: ["/pos/api/v1/payout/edd/list"],
    getPayout: [`/pos/api/v1/payout/${payout.id}`],
    registerWebhook: ["/org/api/v1/organizations/api-webhooks", { webhook_url: "https://hooks.example.com/x" }],
  };
  return calls;
}
