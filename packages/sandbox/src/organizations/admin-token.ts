// The operator's admin token: what lets a caller add organizations while the sandbox runs. Compared in
// constant time over SHA-256 digests, so neither the content nor the length of the token leaks through timing.
import { createHash, timingSafeEqual } from "node:crypto";

/** Shortest admin token accepted: a guessable token would hand out organizations to anyone who can reach the port. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

/**
 * Why an admin token option cannot be used, or undefined when it can (absent: the admin API is off).
 *
 * @example
 * adminTokenProblem("short"); // "adminToken must be at least 16 characters"
 */
export function adminTokenProblem(token: unknown): string | undefined {
  if (token === undefined) return undefined;
  if (typeof token !== "string") return "adminToken must be a string";
  if (token.trim() !== token) return "adminToken must not start or end with white space";
  if (token.length < MIN_ADMIN_TOKEN_LENGTH) return `adminToken must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters`;
  return undefined;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Whether the Authorization header carries the token as a bearer token, compared in constant time.
 *
 * @example
 * hasAdminToken("Bearer s3cr3t-admin-token-1", "s3cr3t-admin-token-1"); // true
 */
export function hasAdminToken(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer (\S+)$/i.exec(authorization?.trim() ?? "")?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}
