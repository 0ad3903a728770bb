import { ExchangeValidationError, QuotationExpiredError, type OperationRef } from "./errors.js";
import type { QuotationLike } from "./resource-types.js";

/**
 * The body to initiate with, after checking the quotation: throws
 * QuotationExpiredError when it is past its expiry_time (nothing is sent),
 * fills quotation_id from the quotation when the body has none, and refuses
 * a body whose quotation_id is a different quotation.
 *
 * @example
 * const body = checkQuotation(quotation, { client_reference_id: "payout-1" }); // adds quotation_id
 */
export function checkQuotation(
  quotation: QuotationLike,
  body: Record<string, unknown>,
  operation?: OperationRef,
  now: number = Date.now(),
): Record<string, unknown> {
  const expiry = quotation.expiry_time;
  if (typeof expiry === "string" && Date.parse(expiry) <= now) {
    throw new QuotationExpiredError(quotation.id, expiry, operation);
  }
  if (quotation.id === undefined || body.quotation_id === quotation.id) return body;
  if (body.quotation_id !== undefined) {
    throw new ExchangeValidationError(
      `quotation_id ${String(body.quotation_id)} is not the quotation passed (${quotation.id})`,
      { quotation_id: ["does not match the quotation option"] },
      operation,
    );
  }
  return { ...body, quotation_id: quotation.id };
}
