// Wallets (address book). The document names "add wallet" and "list wallets" without paths; the sandbox serves
// them at POST /cms/api/v1/customer/wallet/create and GET /cms/api/v1/customer/wallet/list/{customer_id}
// (sandbox-only guesses, not in the spec). Fetch and delete answer UNKNOWN_ERROR with errors.non_field_errors.
import { ApiError, badRequest, missingFields } from "../domain/api-error.js";
import type { HandlerResult } from "./route.js";
import type { CustomerRow, WalletRow } from "../records/rows.js";
import { CUSTOMER_NOT_FOUND, findCustomer, UUID } from "./lookups.js";
import { paginate } from "./paging.js";
import { requireMembers, text } from "./body-members.js";
import type { OperationContext, SandboxContext } from "./validated-request.js";
import { walletView } from "./views.js";

export const WALLET_NETWORKS = ["Ethereum", "Polygon", "Arbitrum", "Bsc", "Sepolia", "Solana", "Tron"];
const EVM = /^0x[0-9a-fA-F]{40}$/;
const ADDRESS_RULES: Record<string, RegExp> = {
  Tron: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  Solana: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
};

function nonField(message: string): ApiError {
  return new ApiError(400, "UNKNOWN_ERROR", message, { non_field_errors: [message] });
}

type WalletContext = OperationContext<"getWallet" | "deleteWallet">;

async function walletOwner(ctx: WalletContext): Promise<CustomerRow> {
  const id = ctx.params.customer_id;
  if (!UUID.test(id)) throw nonField(CUSTOMER_NOT_FOUND);
  const { row } = await ctx.domain.store.customers.owned(ctx.org.id, id.toLowerCase());
  if (!row) throw nonField(CUSTOMER_NOT_FOUND);
  return row;
}

async function findWallet(ctx: WalletContext): Promise<WalletRow> {
  const customer = await walletOwner(ctx);
  // Wallet IDs are integers in the spec, kept as their decimal text.
  const wallet = await ctx.domain.store.wallets.get(String(ctx.params.wallet_id));
  if (!wallet || wallet.customer_id !== customer.id) throw nonField("Wallet not found");
  return wallet;
}

export async function getWallet(ctx: OperationContext<"getWallet">): Promise<HandlerResult> {
  return { message: "Wallet fetched successfully", data: walletView(await findWallet(ctx)) };
}

export async function deleteWallet(ctx: OperationContext<"deleteWallet">): Promise<HandlerResult> {
  const wallet = await findWallet(ctx);
  await ctx.domain.store.wallets.delete(wallet.id);
  return { message: "Wallet deleted successfully", data: walletView(wallet) };
}

/** Sandbox-only path. Body: customer_id, wallet_address, network (a WalletNetwork value), label (optional). */
export async function addWallet(ctx: SandboxContext): Promise<HandlerResult> {
  const { body, domain } = ctx;
  requireMembers(body, ["customer_id", "wallet_address", "network"]);
  const customer = await findCustomer(ctx, body.customer_id);
  const network = body.network;
  if (typeof network !== "string" || !WALLET_NETWORKS.includes(network))
    throw badRequest("INPUT_MALFORMED", "Invalid network", "network", `Must be one of: ${WALLET_NETWORKS.join(", ")}.`);
  const address = text(body, "wallet_address");
  if (!address) throw missingFields(["wallet_address"]);
  if (!(ADDRESS_RULES[network] ?? EVM).test(address)) {
    throw badRequest("INPUT_MALFORMED", "Invalid wallet address", "wallet_address", `Not a valid ${network} address.`);
  }
  if (body.label !== undefined && typeof body.label !== "string")
    throw badRequest("INPUT_MALFORMED", "Invalid label", "label", "Must be a string.");
  const label = typeof body.label === "string" ? body.label.trim() : "";
  for (const wallet of await domain.store.wallets.where("customer_id = ?", [customer.id])) {
    if (wallet.network === network && wallet.wallet_address === address)
      return { message: "Wallet already added", data: walletView(wallet) };
  }
  const wallet: WalletRow = {
    id: String(await domain.store.nextWalletId()),
    org: ctx.org.id,
    customer_id: customer.id,
    wallet_address: address,
    network,
    label,
    status: "ACTIVE",
    created_at: (await domain.clock(customer.org)).iso(),
  };
  await domain.store.wallets.put(wallet);
  return { message: "Wallet added successfully", data: walletView(wallet) };
}

/** Sandbox-only path. Only labelled wallets appear in the list, as the document states. */
export async function listWallets(ctx: SandboxContext<"customer_id">): Promise<HandlerResult> {
  const customer = await findCustomer(ctx, ctx.params.customer_id);
  const wallets = (await ctx.domain.store.wallets.where("customer_id = ?", [customer.id]))
    .filter((w) => w.label !== "")
    .sort((a, b) => Number(a.id) - Number(b.id));
  const page = paginate(ctx, wallets);
  return { message: "Wallets fetched successfully", data: { ...page, results: page.results.map(walletView) } };
}
