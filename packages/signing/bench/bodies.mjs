// Order bodies of about 200 B, 1 KB and 32 KB (as canonical JSON), with
// Hindi beneficiary and remitter names, as sent to the payout endpoints.
const names = ["अनिल कुमार", "सुनीता शर्मा", "राजेश गुप्ता", "प्रिया पटेल", "Ramesh Iyer", "मोहम्मद अली"];

export const small = {
  asset: "usdt",
  fiat: "inr",
  network: "tron",
  payment_method: "IMPS",
  bank_id: "7c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f",
  sending_amount: "100.50",
  risk_parameters: { device_id: "dev-42", note: "अनिल" },
};

function order(i) {
  return {
    client_reference_id: `ref-${100000 + i}`,
    customer_id: "0b8f6a52-3c1e-4f7a-9d2b-5e6c7a8b9c0d",
    bank_id: "7c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f",
    remitter_id: "5f4e3d2c-1b0a-4f9e-8d7c-6b5a4f3e2d1c",
    asset: "usdc",
    fiat: "inr",
    network: "polygon",
    payment_method: "UPI",
    receiving_amount: (8350 + i * 0.25).toFixed(2),
    is_self_transfer: i % 3 === 0,
    beneficiary: { name: names[i % names.length], account_number: `0012345${i}`, ifsc: "HDFC0001234" },
    remitter: { name: names[(i + 1) % names.length], country: "AE", purpose_code: "P1301" },
    fees: { service_fee: "1.20", client_fee: "0.50", client_gst: 0.09, tds: 0 },
    risk_parameters: {
      ip_address: "203.0.113.7",
      device_id: `dev-${i}`,
      suspicious_activity_report: false,
      law_enforcement_agency_report: false,
    },
  };
}

export const medium = { ...order(0), note: "मासिक भुगतान, मार्च", memo: "invoice 2024-03 / order 7781 / batch 12" };

export const large = { batch_id: "b-2", orders: Array.from({ length: 40 }, (_, i) => order(i)) };
