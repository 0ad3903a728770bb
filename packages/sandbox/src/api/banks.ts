// Bank accounts and UPI IDs (PROCESSING, then VERIFIED / FAILED / MANUAL_REVIEW by BANK event), payout bank
// accounts of payout-only corridors, and the USA bank link flow (accounts verified silently: no BANK event).
import { randomInt, randomUUID } from "node:crypto";
import type { ErrCode, PayoutBankIdentifiers } from "@exchange-kit/types";
import { badRequest, missingFields } from "../domain/api-error.js";
import type { HandlerResult } from "./route.js";
import { IFSC_BANKS, PAYOUT_METHOD_BY_COUNTRY, UPI_HANDLES } from "../domain/catalog.js";
import { bankOutcome } from "../domain/magic.js";
import type { BankRow, CustomerRow } from "../records/rows.js";
import { bankDedupeKey } from "../records/record-tables.js";
import { BANK_NOT_FOUND, findCustomer, UUID } from "./lookups.js";
import { paginate } from "./paging.js";
import { requireMembers, text } from "./body-members.js";
import type { Ctx, OperationContext, SandboxContext, ValidatedBody } from "./validated-request.js";
import { bankView } from "./views.js";

export const ACCOUNTS_PER_RAIL = 3;
const IFSC = /^[A-Z]{4}0[A-Z0-9]{6}$/;
const VPA = /^[A-Za-z0-9._-]{1,256}@[A-Za-z][A-Za-z0-9]{1,64}$/;

/** `code`: the bank link lists no USR_UNVERIFIED and answers UNKNOWN_ERROR, as for its other refusals. */
function requireVerified(customer: CustomerRow, code: ErrCode = "USR_UNVERIFIED"): void {
  if (customer.status !== "VERIFIED") throw badRequest(code, "Customer is unverified", "customer_id");
}

async function newBank(
  ctx: Ctx,
  customer: CustomerRow,
  fields: Pick<BankRow, "source" | "bank_account_type" | "identifiers" | "beneficiary_name" | "bank_name"> &
    Partial<BankRow>,
): Promise<BankRow> {
  const now = (await ctx.domain.clock(ctx.org.id)).iso();
  return {
    id: randomUUID(),
    org: ctx.org.id,
    customer_id: customer.id,
    country: customer.country,
    bank_account_status: "PROCESSING",
    failure_reason: null,
    created_at: now,
    updated_at: now,
    ...fields,
  };
}

/** A standard account's identifiers as stored (trimmed; IFSC in capitals) and the bank they name. */
interface CheckedIdentifiers {
  clean: Record<string, string>;
  bankName: string;
}

type StandardIdentifiers = ValidatedBody<"createBankAccount">["identifiers"];

/** A UPI ID: required, in the form name@handle; the handle names the bank. */
function upiIdentifiers(identifiers: StandardIdentifiers): CheckedIdentifiers {
  const vpa = typeof identifiers.vpa === "string" ? identifiers.vpa.trim() : "";
  if (!vpa) throw missingFields(["identifiers.vpa"]);
  if (!VPA.test(vpa))
    throw badRequest("INPUT_MALFORMED", "Invalid UPI ID", "identifiers.vpa", "Enter a valid UPI ID, e.g. asha@okhdfc.");
  return { clean: { vpa }, bankName: UPI_HANDLES[vpa.split("@")[1]!.toLowerCase()] ?? "UPI" };
}

/** An account number, and an IFSC (required in India, checked wherever sent) whose first four letters name the bank. */
function accountIdentifiers(identifiers: StandardIdentifiers, country: string): CheckedIdentifiers {
  const accountNumber = typeof identifiers.account_number === "string" ? identifiers.account_number.trim() : "";
  const ifsc = typeof identifiers.ifsc === "string" ? identifiers.ifsc.trim().toUpperCase() : "";
  const missing = [
    accountNumber ? undefined : "identifiers.account_number",
    ifsc || country !== "IND" ? undefined : "identifiers.ifsc",
  ];
  const absent = missing.filter((m): m is string => m !== undefined);
  if (absent.length > 0) throw missingFields(absent);
  if (ifsc && !IFSC.test(ifsc))
    throw badRequest("INPUT_MALFORMED", "Invalid IFSC", "identifiers.ifsc", "Enter a valid IFSC, e.g. HDFC0001234.");
  return {
    clean: ifsc ? { account_number: accountNumber, ifsc } : { account_number: accountNumber },
    bankName: IFSC_BANKS[ifsc.slice(0, 4)] ?? "Sandbox Bank",
  };
}

/** The customer's account with this dedupe key, if any; another customer's is BANK_DUPLICATE_ACCOUNT. */
async function sameAccount(ctx: Ctx, customer: CustomerRow, key: string): Promise<BankRow | undefined> {
  const same = await ctx.domain.store.banks.first("org = ? AND dedupe = ?", ctx.org.id, key);
  if (same && same.customer_id !== customer.id) {
    throw badRequest(
      "BANK_DUPLICATE_ACCOUNT",
      "UPI ID or account number already in use by another customer",
      "identifiers",
    );
  }
  return same;
}

/** BANK_LIMIT_REACHED once the customer has ACCOUNTS_PER_RAIL accounts of the rail that have not FAILED. */
async function checkRailLimit(ctx: Ctx, customer: CustomerRow, rail: string): Promise<void> {
  const sameRail = (await ctx.domain.store.banks.where("customer_id = ?", [customer.id])).filter(
    (b) => b.source === "standard" && b.bank_account_type === rail && b.bank_account_status !== "FAILED",
  );
  if (sameRail.length >= ACCOUNTS_PER_RAIL) {
    throw badRequest("BANK_LIMIT_REACHED", `${ACCOUNTS_PER_RAIL} accounts already added`, "bank_account_type");
  }
}

export async function createBankAccount(ctx: OperationContext<"createBankAccount">): Promise<HandlerResult> {
  const { body, domain } = ctx;
  requireMembers(body, ["customer_id", "bank_account_type", "identifiers"]);
  const customer = await findCustomer(ctx, body.customer_id);
  requireVerified(customer);
  const rail = body.bank_account_type;
  const { clean, bankName } =
    rail === "UPI" ? upiIdentifiers(body.identifiers) : accountIdentifiers(body.identifiers, customer.country);
  // The same key the dedupe column stores for every standard account.
  const same = await sameAccount(ctx, customer, bankDedupeKey({ bank_account_type: rail, identifiers: clean }));
  if (same) return { message: "Bank account already added", data: bankView(same) };
  await checkRailLimit(ctx, customer, rail);
  const beneficiaryName = text(body, "beneficiary_name") ?? customer.full_name;
  const bank = await newBank(ctx, customer, {
    source: "standard",
    bank_account_type: rail,
    identifiers: clean,
    beneficiary_name: beneficiaryName,
    bank_name: bankName,
  });
  await domain.store.banks.put(bank);
  await domain.plan("BANK", bank, bankOutcome([clean.vpa, clean.account_number, beneficiaryName]));
  return { message: "Bank account added successfully", data: bankView(bank) };
}

export async function listBankAccounts(ctx: OperationContext<"listBankAccounts">): Promise<HandlerResult> {
  const customer = await findCustomer(ctx, ctx.params.customer_id);
  // Already in creation order (the index is customer_id, created_at, seq). Payout accounts (PIX, SEPA, ...) are
  // listed too: the document calls them bank accounts and does not say the list leaves them out.
  const banks = await ctx.domain.store.banks.where("customer_id = ?", [customer.id], "created_at, seq");
  if (customer.country === "USA") {
    return { message: "Bank accounts fetched successfully", data: { accounts: banks.map(bankView) } };
  }
  const page = paginate(ctx, banks);
  return { message: "Bank accounts fetched successfully", data: { ...page, results: page.results.map(bankView) } };
}

async function findBank(ctx: OperationContext<"getBankAccount" | "deleteBankAccount">): Promise<BankRow> {
  const customer = await findCustomer(ctx, ctx.params.customer_id);
  const id = ctx.params.bank_id.toLowerCase();
  const bank = UUID.test(id) ? await ctx.domain.store.banks.get(id) : undefined;
  if (!bank || bank.customer_id !== customer.id) throw badRequest("BANK_NOT_FOUND", BANK_NOT_FOUND, "bank_id");
  return bank;
}

export async function getBankAccount(ctx: OperationContext<"getBankAccount">): Promise<HandlerResult> {
  return { message: "Bank account fetched successfully", data: bankView(await findBank(ctx)) };
}

export async function deleteBankAccount(ctx: OperationContext<"deleteBankAccount">): Promise<HandlerResult> {
  const bank = await findBank(ctx);
  await ctx.domain.cancel("BANK", bank.id);
  await ctx.domain.store.banks.delete(bank.id);
  return { message: "Bank account deleted successfully", data: bankView(bank) };
}

/** Identifiers each payout method needs (PIX and SEPA as the document states; the others are the sandbox's guess). */
const PAYOUT_IDENTIFIERS: Record<string, string[]> = {
  PIX: ["br_cpf"],
  SEPA: ["account_holder_name", "account_number", "swift_code"],
  WIRE: ["account_number"],
  ACH_PUSH: ["account_number"],
  SPEI: ["account_number"],
  IMPS: ["account_number", "ifsc"],
};

/** Payout bank accounts: errors are UNKNOWN_ERROR with field-keyed errors, as the document states for E9. */
export async function createBankAccountForPayout(
  ctx: OperationContext<"createBankAccountForPayout">,
): Promise<HandlerResult> {
  const { body, domain } = ctx;
  requireMembers(body, ["customer_id"]);
  const customer = await findCustomer(ctx, body.customer_id, { missing: "UNKNOWN_ERROR", otherOrg: "UNKNOWN_ERROR" });
  const method = text(body, "bank_account_type") ?? PAYOUT_METHOD_BY_COUNTRY[customer.country] ?? "WIRE";
  const needed = PAYOUT_IDENTIFIERS[method];
  if (!needed) {
    throw badRequest(
      "UNKNOWN_ERROR",
      "Unsupported payout method",
      "bank_account_type",
      `Use one of: ${Object.keys(PAYOUT_IDENTIFIERS).join(", ")}.`,
    );
  }
  const identifiers: PayoutBankIdentifiers = body.identifiers ?? {};
  const absent = needed.filter((name) => {
    const value = identifiers[name];
    return typeof value !== "string" || value.trim() === "";
  });
  if (absent.length > 0) throw missingFields(absent.map((name) => `identifiers.${name}`));
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(identifiers)) if (typeof value === "string") clean[name] = value;
  const extra: Partial<BankRow> = {};
  if (customer.country !== "IND") {
    extra.transfer_purpose = text(body, "transfer_purpose") ?? "TRANSFER_TO_OWN_ACCOUNT";
    extra.is_self_transfer = typeof body.is_self_transfer === "boolean" ? body.is_self_transfer : true;
  }
  const beneficiaryName = clean.account_holder_name ?? text(body, "beneficiary_name") ?? customer.full_name;
  const bank = await newBank(ctx, customer, {
    source: "payout",
    bank_account_type: method,
    identifiers: clean,
    beneficiary_name: beneficiaryName,
    bank_name: `Sandbox ${method} bank`,
    ...extra,
  });
  await domain.store.banks.put(bank);
  await domain.plan("BANK", bank, bankOutcome([...Object.values(clean), beneficiaryName]));
  return { message: "Bank account added successfully", data: bankView(bank) };
}

/**
 * The USA bank link flow. The sandbox plays the customer too: the link is "completed" at once, so a linked
 * account appears in the list as PROCESSING and turns VERIFIED after the automatic-progress delay, silently.
 */
export async function generateBankLink(ctx: OperationContext<"generateBankLink">): Promise<HandlerResult> {
  const { body, domain } = ctx;
  requireMembers(body, ["customer_id"]);
  const customer = await findCustomer(ctx, body.customer_id, { missing: "UNKNOWN_ERROR", otherOrg: "UNKNOWN_ERROR" });
  if (customer.country !== "USA") {
    throw badRequest("UNKNOWN_ERROR", "The bank link flow is for customers in the USA", "customer_id");
  }
  requireVerified(customer, "UNKNOWN_ERROR");
  let accountNumber = String(randomInt(1, 10));
  for (let i = 0; i < 11; i++) accountNumber += String(randomInt(10));
  const bank = await newBank(ctx, customer, {
    source: "linked",
    bank_account_type: "ACCOUNT_DETAILS",
    identifiers: { account_number: accountNumber, routing_number: "021000021" },
    beneficiary_name: customer.full_name,
    bank_name: "Sandbox Bank USA",
  });
  await domain.store.banks.put(bank);
  await domain.plan("BANK", bank, [{ status: "VERIFIED", failure_reason: null }]);
  return {
    message: "Bank link generated successfully",
    data: { link_url: `${ctx.origin}/_sandbox/bank-link/${bank.id}`, customer_id: customer.id },
  };
}

/** The page the link points at (public, like a hosted page): it reports the account the flow linked. */
export async function bankLinkPage(ctx: SandboxContext<"bank_id">): Promise<HandlerResult> {
  const bank = await ctx.domain.store.banks.get(ctx.params.bank_id);
  if (bank?.source !== "linked") throw badRequest("UNKNOWN_ERROR", "Unknown bank link", "bank_id");
  return {
    message: "Bank account linked (sandbox): return to the application",
    data: { customer_id: bank.customer_id },
  };
}
