// What an ambiguous failure tells the caller to look at: a read or event that settles whether the request took
// effect. A KYC submission shows in no read before its outcome (the customer reads UNVERIFIED either way), so its
// check names the CUSTOMER event and what a repeat does, never a read that cannot tell.
import { describe, expect, it } from "vitest";
import { ambiguityCheck } from "../src/retry-safety.js";

describe("the check named after an ambiguous failure", () => {
  it.each([
    ["addKycData", /CUSTOMER webhook event.*refuses a second submission with 400 "KYC already exists"/],
    ["updateKycSelfie", /CUSTOMER webhook event.*another update toward the limit of 3/],
    ["updateKycTaxInfo", /CUSTOMER webhook event.*another update toward the limit of 3/],
    ["updateKycDocumentInfo", /CUSTOMER webhook event.*another update toward the limit of 3/],
    ["addPayoutSenderKycData", /operator.*no read shows it/],
    ["createBankAccount", /client\.banks\.list/],
    ["savePayinEdd", /client\.payins\.listEdd/],
    ["initiatePayout", /client\.payouts\.history.*client_reference_id/],
  ])("for %s names what settles it", (operationId, check) => {
    expect(ambiguityCheck(operationId)).toMatch(check);
  });

  it.each(["addKycData", "updateKycSelfie", "updateKycTaxInfo", "updateKycDocumentInfo"])(
    "for %s does not send the caller to the customer read, which reads UNVERIFIED either way",
    (operationId) => {
      expect(ambiguityCheck(operationId)).not.toMatch(/customers\.get/);
    },
  );

  it("for an operation it does not know says to check whether the request took effect", () => {
    expect(ambiguityCheck("somethingElse")).toBe("whether the request took effect");
  });
});
