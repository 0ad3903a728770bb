import { canonicalizeText, computeSignature } from "@exchange-kit/signing";

export const apiKey = "ak_test_7f3c2a";
export const apiSecret = "sk_test_9d41e0b6c5";
/** A fixed clock for deterministic timestamps: 2026-03-01T10:00:00Z. */
export const now = 1772359200;

export const payoutInReview = {
  type: "PAYOUT",
  id: "c4b3a291-8f7e-4d6c-9b5a-4f3e2d1c0b9a",
  event: "IN_REVIEW",
  timestamp: "2026-03-01T10:55:02Z",
  metadata: {
    client_reference_id: "payout-000789",
    reason: "Request for information",
    rfi_link: "https://rfi.exchange.example/r/4c2e9a71",
  },
} as const;

/** Signs JSON text the way the service does (over its canonical form) and returns the headers. */
export async function signText(
  text: string,
  options: { timestamp?: number; key?: string; secret?: string } = {},
): Promise<Record<string, string>> {
  const timestamp = options.timestamp ?? now;
  const signature = await computeSignature({
    apiKey: options.key ?? apiKey,
    apiSecret: options.secret ?? apiSecret,
    timestamp,
    canonicalBody: canonicalizeText(text),
  });
  return { "content-type": "application/json", "x-timestamp": String(timestamp), "x-signature": signature };
}

/** An event with a unique UUID per number, for load tests. */
export function eventNumber(n: number, event = "SUCCESS") {
  const hex = n.toString(16).padStart(12, "0");
  return {
    type: "PAYIN",
    id: `5d2c1b0a-9f8e-4d7c-8b6a-${hex}`,
    event,
    timestamp: "2026-03-01T10:21:04Z",
    metadata: { transaction_reference_id: String(412345678901 + n), transaction_hash: `0x${hex}` },
  };
}
