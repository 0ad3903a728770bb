// How resource groups and method names are derived from the spec's tags and operationIds, applied once by the
// generator (the client's methods are written out in src/generated/resources/, so nothing derives names at run
// time). The rule:
// 1. The group is TAG_GROUPS[tag]; an unknown tag becomes its camelCase ("Bank accounts" -> "bankAccounts").
// 2. The group has an ordered list of nouns (GROUP_NOUNS; none for an unknown tag). The first noun, in that
//    order, whose first occurrence in the operationId is after its first character and ends the operationId
//    or is followed by an upper-case ASCII letter, is removed from that occurrence.
// 3. No such noun: the method name is the operationId unchanged.
// So createCustomer -> customers.create, listBankAccounts -> banks.list, generateBankLink -> banks.generateLink,
// createPayoutQuotation -> payouts.createQuotation, registerWebhook -> organization.registerWebhook.

/** Spec tag -> client group. */
export const TAG_GROUPS: Readonly<Record<string, string>> = {
  Customers: "customers",
  KYC: "kyc",
  "Bank accounts": "banks",
  Wallets: "wallets",
  Payins: "payins",
  Payouts: "payouts",
  Organization: "organization",
};

/** Group -> the nouns removed from operationIds, longest first so that "BankAccounts" wins over "Bank". */
export const GROUP_NOUNS: Readonly<Record<string, readonly string[]>> = {
  customers: ["Customers", "Customer"],
  kyc: ["Kyc"],
  banks: ["BankAccounts", "BankAccount", "Bank"],
  wallets: ["Wallets", "Wallet"],
  payins: ["Payins", "Payin"],
  payouts: ["Payouts", "Payout"],
  organization: ["Organizations", "Organization"],
};

/** The client group of a tag: groupOfTag("Bank accounts") is "banks". */
export function groupOfTag(tag: string): string {
  const known = TAG_GROUPS[tag];
  if (known !== undefined) return known;
  return tag
    .split(" ")
    .map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() : w.charAt(0).toUpperCase()) + w.slice(1))
    .join("");
}

/** The method name of an operationId within a group: methodNameOf("createPayoutQuotation", "payouts") is "createQuotation". */
export function methodNameOf(operationId: string, group: string): string {
  for (const noun of GROUP_NOUNS[group] ?? []) {
    const at = operationId.indexOf(noun);
    if (at <= 0) continue;
    const next = operationId.charAt(at + noun.length);
    if (next === "" || (next >= "A" && next <= "Z"))
      return operationId.slice(0, at) + operationId.slice(at + noun.length);
  }
  return operationId;
}
