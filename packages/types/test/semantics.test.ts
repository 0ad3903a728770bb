// The rules the spec states with oneOf, anyOf, not, if/then, propertyNames and formats, checked on the generated
// zod schemas with values built from the spec's own examples.
import { describe, expect, it } from "vitest";
import {
  BankAccountRecordSchema,
  BankAccountSchema,
  PayoutConfigurationSchema,
  PayoutInReviewEventSchema,
  PayoutQuotationRequestSchema,
  RemittancePayoutQuotationRequestSchema,
  RiskParametersSchema,
  SuccessEnvelopeSchema,
  WalletSchema,
  operationSchemas,
} from "../src/zod.js";
import { spec } from "./support/spec.js";

const doc = spec();
const example = (name: string) => structuredClone(doc.components.schemas[name].examples[0]) as Record<string, unknown>;

describe("the zod schemas follow the spec's rules", () => {
  it("refuse a wallet with a non-empty label that is not visible, and leave an unlabelled one open (anyOf with not)", () => {
    const wallet = example("Wallet");
    expect(WalletSchema.safeParse({ ...wallet, is_visible: true }).success).toBe(true);
    expect(WalletSchema.safeParse({ ...wallet, is_visible: false }).success).toBe(false);
    expect(WalletSchema.safeParse({ ...wallet, label: "", is_visible: false }).success).toBe(true);
  });

  it("accept a fetched payout bank account (SEPA) as a bank account record, which the rail schema refuses", () => {
    const sepa = example("PayoutBankAccount");
    expect(BankAccountSchema.safeParse(sepa).success).toBe(false);
    expect(BankAccountRecordSchema.safeParse(sepa).success).toBe(true);
    expect(BankAccountRecordSchema.safeParse(example("BankAccount")).success).toBe(true);
    expect(
      operationSchemas.getBankAccount.responses["200"].safeParse({ status: true, message: "OK", data: sepa }).success,
    ).toBe(true);
  });

  it("refuse a labelled wallet that does not say it is visible", () => {
    const { is_visible: _, ...labelled } = example("Wallet");
    expect(WalletSchema.safeParse(labelled).success).toBe(false);
    expect(WalletSchema.safeParse({ ...labelled, label: "" }).success).toBe(true);
  });

  it("refuse a bank account record whose rail account has no identifiers", () => {
    const { identifiers: _, ...rail } = example("BankAccount");
    expect(BankAccountRecordSchema.safeParse(rail).success).toBe(false);
  });

  it("refuse a bank account record whose bank_account_type is a rail in the wrong case", () => {
    const rail = example("BankAccount");
    expect(BankAccountRecordSchema.safeParse({ ...rail, bank_account_type: "account_details" }).success).toBe(false);
  });

  it("refuse a UPI bank account record with empty identifiers", () => {
    const rail = example("BankAccount");
    expect(BankAccountRecordSchema.safeParse({ ...rail, bank_account_type: "UPI", identifiers: {} }).success).toBe(
      false,
    );
    const upi = { ...rail, bank_account_type: "UPI", identifiers: { vpa: "asha@okhdfc" } };
    expect(BankAccountRecordSchema.safeParse(upi).success).toBe(true);
  });

  it("refuse a payout bank account record without its method's identifiers", () => {
    const sepa = example("PayoutBankAccount");
    const { swift_code: _, ...noSwift } = sepa.identifiers as Record<string, unknown>;
    expect(BankAccountRecordSchema.safeParse({ ...sepa, identifiers: noSwift }).success).toBe(false);
    expect(BankAccountRecordSchema.safeParse({ ...sepa, bank_account_type: "PIX" }).success).toBe(false);
    const pix = { ...sepa, bank_account_type: "PIX", identifiers: { br_cpf: "12345678909" } };
    expect(BankAccountRecordSchema.safeParse(pix).success).toBe(true);
    const wire: Record<string, unknown> = { ...sepa, bank_account_type: "WIRE" };
    delete wire.identifiers;
    expect(BankAccountRecordSchema.safeParse(wire).success).toBe(false);
  });

  it("refuse a payout bank account record whose bank_account_type is not an upper-case method code", () => {
    const sepa = example("PayoutBankAccount");
    expect(BankAccountRecordSchema.safeParse({ ...sepa, bank_account_type: "sepa" }).success).toBe(false);
  });

  it("accept a payout quotation request with exactly one of sending_amount and receiving_amount (oneOf with not)", () => {
    for (const schema of [PayoutQuotationRequestSchema, RemittancePayoutQuotationRequestSchema]) {
      const base = example(
        schema === PayoutQuotationRequestSchema ? "PayoutQuotationRequest" : "RemittancePayoutQuotationRequest",
      );
      delete base.sending_amount;
      delete base.receiving_amount;
      expect(schema.safeParse({ ...base, sending_amount: "10.5" }).success).toBe(true);
      expect(schema.safeParse({ ...base, receiving_amount: "1000" }).success).toBe(true);
      expect(schema.safeParse({ ...base, sending_amount: "10.5", receiving_amount: "1000" }).success).toBe(false);
      expect(schema.safeParse(base).success).toBe(false);
    }
  });

  it("require full_name, or first_name with last_name, in createCustomer (anyOf of required sets)", () => {
    const body = operationSchemas.createCustomer.requestBody;
    const base = { client_reference_id: "c-1", alpha_3_country_code: "IND" };
    expect(body.safeParse({ ...base, full_name: "Asha Verma" }).success).toBe(true);
    expect(body.safeParse({ ...base, first_name: "Asha", last_name: "Verma" }).success).toBe(true);
    expect(body.safeParse({ ...base, first_name: "Asha" }).success).toBe(false);
    expect(body.safeParse(base).success).toBe(false);
  });

  it("require dob in createCustomer when the country is USA (if/then)", () => {
    const body = operationSchemas.createCustomer.requestBody;
    const base = { client_reference_id: "c-1", full_name: "Sam Lee", alpha_3_country_code: "USA" };
    expect(body.safeParse(base).success).toBe(false);
    expect(body.safeParse({ ...base, dob: "1990-01-31" }).success).toBe(true);
    expect(body.safeParse({ ...base, alpha_3_country_code: "IND" }).success).toBe(true);
  });

  it("require rfi_link in a PAYOUT IN_REVIEW event whose reason is Request for information (nested if/then)", () => {
    const base = {
      type: "PAYOUT",
      id: "3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f",
      event: "IN_REVIEW",
      timestamp: "2026-03-01T09:12:40Z",
    };
    const rfi = { client_reference_id: null, reason: "Request for information" };
    expect(PayoutInReviewEventSchema.safeParse({ ...base, metadata: rfi }).success).toBe(false);
    expect(
      PayoutInReviewEventSchema.safeParse({ ...base, metadata: { ...rfi, rfi_link: "https://rfi.example/f/1" } })
        .success,
    ).toBe(true);
    expect(
      PayoutInReviewEventSchema.safeParse({
        ...base,
        metadata: { client_reference_id: "p-1", reason: "Under compliance review" },
      }).success,
    ).toBe(true);
  });

  it("require the identifier of the bank account's rail (anyOf told apart by bank_account_type)", () => {
    const account = example("BankAccount");
    expect(BankAccountSchema.safeParse(account).success).toBe(true);
    expect(BankAccountSchema.safeParse({ ...account, identifiers: { ifsc: "HDFC0001234" } }).success).toBe(false);
    expect(BankAccountSchema.safeParse({ ...account, bank_account_type: "UPI" }).success).toBe(false);
    expect(
      BankAccountSchema.safeParse({ ...account, bank_account_type: "UPI", identifiers: { vpa: "asha@okhdfc" } })
        .success,
    ).toBe(true);
  });

  it("check the fiat keys of the payout configuration (propertyNames) and each fiat's shape", () => {
    const config = example("PayoutConfiguration");
    expect(PayoutConfigurationSchema.safeParse(config).success).toBe(true);
    expect(PayoutConfigurationSchema.safeParse({ ...config, INR: config.inr }).success).toBe(false);
    expect(PayoutConfigurationSchema.safeParse({ usd: { required_risk_parameters: "ip_address" } }).success).toBe(
      false,
    );
  });

  it("check the IP address format, v4 or v6 (anyOf of formats)", () => {
    expect(RiskParametersSchema.safeParse({ ip_address: "203.0.113.24" }).success).toBe(true);
    expect(RiskParametersSchema.safeParse({ ip_address: "2001:db8::1" }).success).toBe(true);
    expect(RiskParametersSchema.safeParse({ ip_address: "not-an-ip" }).success).toBe(false);
    expect(RiskParametersSchema.safeParse({ further_key: "kept" }).data).toEqual({ further_key: "kept" });
  });

  it("require data in a success envelope even though its shape is open", () => {
    expect(SuccessEnvelopeSchema.safeParse({ status: true, message: "ok", data: null }).success).toBe(true);
    expect(SuccessEnvelopeSchema.safeParse({ status: true, message: "ok" }).success).toBe(false);
  });
});
