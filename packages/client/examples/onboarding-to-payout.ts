import { createExchangeClient, type ExchangeClient } from "@exchange-kit/client";

/**
 * Onboards a customer in India, links their bank account and pays out 100 USDT to it.
 * Credentials come from EXCHANGE_API_KEY, EXCHANGE_API_SECRET and EXCHANGE_BASE_URL.
 */
export async function onboardingToPayout(client: ExchangeClient = createExchangeClient()) {
  // 1. Create the customer (re-sending the same client_reference_id returns the existing one).
  const customer = await client.customers.create({
    client_reference_id: "cust-000123",
    alpha_3_country_code: "IND",
    full_name: "Asha Verma",
    email: "asha.verma@example.com",
    phone: "9876543210",
  });

  // 2. Which documents the customer's country accepts, and whether a tax number is needed.
  const config = await client.kyc.getConfiguration(customer.id);
  const documentType = config.supported_document_types.includes("PAN") ? "PAN" : config.supported_document_types[0]!;

  // 3. Submit KYC, then wait for the outcome (dates in KYC are DD-MM-YYYY).
  await client.kyc.addData({
    customer_id: customer.id,
    full_name: "Asha Verma",
    phone: "9876543210",
    full_address: "12 MG Road, Bengaluru 560001",
    dob: "31-01-1990",
    registered_date: "01-02-2020",
    document_type: documentType,
    document_details: { document_number: "ABCDE1234F", additional_data: {} },
    document_front_image_url: "https://files.example.com/pan-front.png",
    document_back_image_url: "https://files.example.com/pan-back.png",
    selfie_url: "https://files.example.com/selfie.png",
    ...(config.is_tax_required ? { tax_number: "ABCDE1234F" } : {}),
  });
  const kyc = await client.customers.waitForKyc(customer.id, { timeoutMs: 15 * 60_000 });
  if (kyc.status !== "VERIFIED") throw new Error(`KYC failed: ${kyc.failure_reason ?? "no reason given"}`);

  // 4. Link a bank account and wait for its verification.
  const added = await client.banks.create({
    customer_id: customer.id,
    bank_account_type: "ACCOUNT_DETAILS",
    identifiers: { account_number: "50100123456789", ifsc: "HDFC0001234" },
  });
  const bank = await client.banks.waitFor(customer.id, added.id);
  if (bank.bank_account_status !== "VERIFIED") throw new Error(`bank account failed: ${bank.failure_reason ?? ""}`);

  // 5. Fix the rate: a quotation for exactly 100 USDT (amounts are decimal strings).
  const quotation = await client.payouts.createQuotation({
    asset: "USDT",
    fiat: "INR",
    network: "tron",
    payment_method: "IMPS",
    customer_id: customer.id,
    bank_id: bank.id,
    risk_parameters: { ip_address: "203.0.113.7" },
    sending_amount: "100",
  });

  // 6. Initiate. An expired quotation is refused before anything is sent, and a retry after a
  //    timeout first looks the order up by client_reference_id, so it is never created twice.
  const reference = "payout-000789";
  await client.payouts.initiate({ client_reference_id: reference }, { quotation });
  // Now send quotation.sending_amount USDT to quotation.wallet_address from your wallet.

  // 7. The creation result's fields are not published: find the order by its reference, then poll it
  //    (PROCESSING sends no event) until SUCCESS, FAILED or REFUNDED.
  let payoutId: string | undefined;
  for await (const order of client.payouts.history.all({ per_page: 100 })) {
    if (order.client_reference_id === reference) {
      payoutId = order.id;
      break;
    }
  }
  if (payoutId === undefined) throw new Error(`payout ${reference} not found`);
  const payout = await client.payouts.waitFor(payoutId, { timeoutMs: 30 * 60_000 });
  console.log(`payout ${payout.id}: ${payout.status}, ${payout.receiving_amount} ${payout.fiat}, UTR ${payout.utr ?? "-"}`);
  return payout;
}
