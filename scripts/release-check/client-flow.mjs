// Runs inside the app that installed only @exchange-kit/client: the start of an integration against the
// sandbox the cli runs (customer, KYC), with the webhook URL pointed at the receiver, and a typed API error.
import { createExchangeClient, ExchangeApiError } from "@exchange-kit/client";

const {
  EXCHANGE_BASE_URL: baseUrl,
  EXCHANGE_API_KEY: apiKey,
  EXCHANGE_API_SECRET: apiSecret,
  WEBHOOK_URL,
} = process.env;
const client = createExchangeClient({ baseUrl, apiKey, apiSecret });
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

await client.organization.registerWebhook({ webhook_url: WEBHOOK_URL });
const run = Date.now().toString(36);
const customer = await client.customers.create({
  client_reference_id: `release-check-${run}`,
  alpha_3_country_code: "IND",
  full_name: "Asha Verma",
  email: `asha.${run}@example.com`,
  phone: "9876543210",
});
const config = await client.kyc.getConfiguration(customer.id);
const wanted = config.additional_info_required;
const options = wanted.options ?? [];
const additional = Object.fromEntries(
  options.slice(0, Math.max(1, wanted.rules?.min_required ?? 0)).map((name) => [name, "Provided"]),
);
const kyc = await client.kyc.addData({
  customer_id: customer.id,
  full_name: "Asha Verma",
  phone: "9876543210",
  full_address: "12 MG Road, Bengaluru 560001",
  dob: "31-01-1990",
  registered_date: "01-02-2020",
  document_type: config.supported_document_types.includes("PAN") ? "PAN" : config.supported_document_types[0],
  document_details: { document_number: "ABCDE1234F", additional_data: {} },
  document_front_image_url: "https://files.example.com/front.png",
  document_back_image_url: "https://files.example.com/back.png",
  selfie_url: "https://files.example.com/selfie.png",
  additional_info: additional,
  ...(config.is_tax_required ? { tax_number: "ABCDE1234F" } : {}),
});
let apiError;
try {
  await client.kyc.getConfiguration("00000000-0000-4000-8000-000000000000");
} catch (error) {
  apiError = error;
}
if (!(apiError instanceof ExchangeApiError))
  throw new Error(`expected an ExchangeApiError for an unknown customer, got ${apiError}`);
print({ customer: customer.id, kyc: kyc.status, unknownCustomer: `${apiError.status} ${apiError.errCode}` });
