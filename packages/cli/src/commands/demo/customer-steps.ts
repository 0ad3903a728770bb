// The demo's customer: created, KYC submitted as its configuration asks, verified by webhook, a bank account added.
import { type DemoState, defineStep, ensure } from "./step.js";

/** additional_info as the KYC configuration asks for it: every required field, then more until min_required. */
export function additionalInfoFor(config: { additional_info_required: unknown }): Record<string, string> {
  const wanted = config.additional_info_required as { options?: string[]; rules?: { min_required?: number } } & Record<
    string,
    unknown
  >;
  const sample: Record<string, string> = {
    occupation: "Software engineer",
    annual_income: "1200000",
    source_of_funds: "Salary",
  };
  const options = wanted.options ?? [];
  const required = options.filter((name) => (wanted[name] as { required?: boolean } | undefined)?.required === true);
  const chosen = [...required, ...options.filter((name) => !required.includes(name))].slice(
    0,
    Math.max(required.length, wanted.rules?.min_required ?? 0),
  );
  return Object.fromEntries(chosen.map((name) => [name, sample[name] ?? "Provided"]));
}

/** The document the demo submits: a PAN when the configuration accepts one, else the first type it accepts. */
const documentTypeOf = (s: DemoState) => {
  const types = s.kycConfiguration.supported_document_types;
  return types.includes("PAN") ? "PAN" : types[0]!;
};

function submitKyc(s: DemoState) {
  const config = s.kycConfiguration;
  return s.client.kyc.addData({
    customer_id: s.customer.id,
    full_name: "Asha Verma",
    phone: "9876543210",
    full_address: "12 MG Road, Bengaluru 560001",
    dob: "31-01-1990",
    registered_date: "01-02-2020",
    document_type: documentTypeOf(s),
    document_details: { document_number: "ABCDE1234F", additional_data: {} },
    document_front_image_url: "https://files.example.com/pan-front.png",
    document_back_image_url: "https://files.example.com/pan-back.png",
    selfie_url: "https://files.example.com/selfie.png",
    additional_info: additionalInfoFor(config),
    ...(config.is_tax_required ? { tax_number: "ABCDE1234F" } : {}),
  });
}

export const CUSTOMER_STEPS = [
  defineStep({
    name: "create customer",
    action: async (s) =>
      (s.customer = await s.client.customers.create({
        client_reference_id: `demo-${s.run}`,
        alpha_3_country_code: "IND",
        full_name: "Asha Verma",
        email: `asha.${s.run}@example.com`,
        phone: "9876543210",
      })),
    check: (c) => {
      ensure(c.status === "UNVERIFIED", `status ${c.status}, expected UNVERIFIED`);
      return `${c.id} ${c.status}`;
    },
  }),
  defineStep({
    name: "fetch KYC configuration",
    action: async (s) => (s.kycConfiguration = await s.client.kyc.getConfiguration(s.customer.id)),
    check: (c) =>
      `documents ${c.supported_document_types.join(", ")}; tax number ${c.is_tax_required ? "required" : "optional"}`,
  }),
  defineStep({
    name: "submit KYC",
    action: submitKyc,
    check: (r, s) => {
      ensure(r.status === "PROCESSING", `status ${r.status}`);
      return `${documentTypeOf(s)}, ${r.status}`;
    },
  }),
  defineStep({
    name: "receive CUSTOMER VERIFIED (signed webhook)",
    action: (s) => s.receiver.waitFor("CUSTOMER", "VERIFIED", s.customer.id),
    check: (e) => `at ${e.timestamp}`,
  }),
  defineStep({
    name: "add bank account",
    action: async (s) =>
      (s.bank = await s.client.banks.create({
        customer_id: s.customer.id,
        bank_account_type: "ACCOUNT_DETAILS",
        identifiers: { account_number: "50100123456789", ifsc: "HDFC0001234" },
      })),
    check: (b) => `${b.id} ${b.bank_account_status}`,
  }),
  defineStep({
    name: "receive BANK VERIFIED (signed webhook)",
    action: (s) => s.receiver.waitFor("BANK", "VERIFIED", s.bank.id),
    check: (e) => `at ${e.timestamp}`,
  }),
];
