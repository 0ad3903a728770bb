// Fake but well-formed identifiers for what the real service would get from banks and chains.
import { randomBytes, randomInt } from "node:crypto";

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

function base58(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += BASE58[randomInt(BASE58.length)];
  return out;
}

/** A 12-digit bank reference (UTR), as Indian IMPS references look. */
export function utr(): string {
  let out = String(randomInt(1, 10));
  for (let i = 0; i < 11; i++) out += String(randomInt(10));
  return out;
}

export function transactionHash(network: string): string {
  const hex = randomBytes(32).toString("hex");
  if (network.toLowerCase() === "solana") return base58(88);
  return network.toLowerCase() === "tron" ? hex : `0x${hex}`;
}

/** A deposit address of the network's shape. */
export function depositAddress(network: string): string {
  const name = network.toLowerCase();
  if (name === "tron") return `T${base58(33)}`;
  if (name === "solana") return base58(44);
  return `0x${randomBytes(20).toString("hex")}`;
}
