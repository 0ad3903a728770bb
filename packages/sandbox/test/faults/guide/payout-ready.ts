// Shared by the guide's examples: a sandbox with a VERIFIED customer and bank account, ready for payouts.
import { createExchangeClient } from "@exchange-kit/client";
import { createSandbox, type Sandbox } from "@exchange-kit/sandbox";

export async function payoutReady(): Promise<{ sandbox: Sandbox; customerId: string; bankId: string }> {
  const sandbox = await createSandbox({ autoProgressMs: 0 });
  const { apiKey, apiSecret } = sandbox.organizations[0]!;
  const client = createExchangeClient({ baseUrl: sandbox.url, apiKey, apiSecret });
  const run = Date.now().toString(36);
  const customer = await client.customers.create({
    client_reference_id: `guide-${run}`,
    full_name: "Asha Verma",
    alpha_3_country_code: "IND",
  });
  await client.kyc.addData({
    customer_id: customer.id,
    full_name: "Asha Verma",
    dob: "15-08-1992",
    document_type: "PASSPORT",
    document_details: { document_number: `Z${run}` },
    selfie_url: "https://files.example.com/selfie.jpg",
    tax_number: "ABCDE1234F",
    document_front_image_url: "https://files.example.com/front.png",
    document_back_image_url: "https://files.example.com/back.png",
    additional_info: { occupation: "Engineer" },
  });
  await client.customers.waitForKyc(customer.id, { intervalMs: 20 });
  const bank = await client.banks.create({
    customer_id: customer.id,
    bank_account_type: "UPI",
    identifiers: { vpa: `asha.${run}@okhdfc` },
  });
  await client.banks.waitFor(customer.id, bank.id, { intervalMs: 20 });
  return { sandbox, customerId: customer.id, bankId: bank.id };
}
