// How resource groups and method names are derived from the spec's tags and operationIds. The runtime
// functions and the types below implement the same rule; test/method-names.test.ts checks that they agree
// for every operation.
//
// The rule:
// 1. The group is TAG_GROUPS[tag]; an unknown tag becomes its camelCase ("Bank accounts" -> "bankAccounts").
// 2. The group has an ordered list of nouns (GROUP_NOUNS; none for an unknown tag). The first noun, in that
//    order, whose first occurrence in the operationId is after its first character and ends the operationId
//    or is followed by an upper-case ASCII letter, is removed from that occurrence.
// 3. No such noun: the method name is the operationId unchanged.
// So createCustomer -> customers.create, listBankAccounts -> banks.list, generateBankLink -> banks.generateLink,
// createPayoutQuotation -> payouts.createQuotation, registerWebhook -> organization.registerWebhook.

/** Spec tag -> client group. */
export const TAG_GROUPS = {
  Customers: "customers",
  KYC: "kyc",
  "Bank accounts": "banks",
  Wallets: "wallets",
  Payins: "payins",
  Payouts: "payouts",
  Organization: "organization",
} as const;

/** Group -> the nouns removed from operationIds, longest first so that "BankAccounts" wins over "Bank". */
export const GROUP_NOUNS = {
  customers: ["Customers", "Customer"],
  kyc: ["Kyc"],
  banks: ["BankAccounts", "BankAccount", "Bank"],
  wallets: ["Wallets", "Wallet"],
  payins: ["Payins", "Payin"],
  payouts: ["Payouts", "Payout"],
  organization: ["Organizations", "Organization"],
} as const;

type TagGroups = typeof TAG_GROUPS;
type GroupNouns = typeof GROUP_NOUNS;

/** "Bank accounts" -> "bankAccounts", at the type level. */
export type CamelTag<T extends string> = T extends `${infer Head} ${infer Tail}`
  ? `${Uncapitalize<Head>}${CamelTail<Tail>}`
  : Uncapitalize<T>;
type CamelTail<T extends string> = T extends `${infer Head} ${infer Tail}`
  ? `${Capitalize<Head>}${CamelTail<Tail>}`
  : Capitalize<T>;

/** The client group of a tag. */
export type GroupOfTag<T extends string> = T extends keyof TagGroups ? TagGroups[T] : CamelTag<T>;

type NounsOf<G extends string> = G extends keyof GroupNouns ? GroupNouns[G] : readonly [];

// Upper-case ASCII letter: unchanged by Uppercase but changed by Lowercase (digits are unchanged by both).
type StartsUpper<S extends string> = S extends ""
  ? true
  : S extends `${infer C}${string}`
    ? C extends Uppercase<C>
      ? C extends Lowercase<C>
        ? false
        : true
      : false
    : false;

type RemoveFirst<Id extends string, Nouns extends readonly string[]> = Nouns extends readonly [
  infer Noun extends string,
  ...infer Rest extends readonly string[],
]
  ? Id extends `${infer Pre}${Noun}${infer Post}`
    ? Pre extends ""
      ? RemoveFirst<Id, Rest>
      : StartsUpper<Post> extends true
        ? `${Pre}${Post}`
        : RemoveFirst<Id, Rest>
    : RemoveFirst<Id, Rest>
  : Id;

/** The method name of an operationId within a group, at the type level. */
export type MethodNameOf<Id extends string, G extends string> = RemoveFirst<Id, NounsOf<G>>;

/**
 * The client group of a tag.
 *
 * @example
 * groupOfTag("Bank accounts"); // "banks"
 */
export function groupOfTag(tag: string): string {
  const known = (TAG_GROUPS as Record<string, string>)[tag];
  if (known !== undefined) return known;
  const words = tag.split(" ");
  return words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() : w.charAt(0).toUpperCase()) + w.slice(1)).join("");
}

/**
 * The method name of an operationId within a group.
 *
 * @example
 * methodNameOf("createPayoutQuotation", "payouts"); // "createQuotation"
 */
export function methodNameOf(operationId: string, group: string): string {
  const nouns: readonly string[] = (GROUP_NOUNS as Record<string, readonly string[]>)[group] ?? [];
  for (const noun of nouns) {
    const at = operationId.indexOf(noun);
    if (at <= 0) continue;
    const next = operationId.charAt(at + noun.length);
    if (next === "" || (next >= "A" && next <= "Z")) {
      return operationId.slice(0, at) + operationId.slice(at + noun.length);
    }
  }
  return operationId;
}
