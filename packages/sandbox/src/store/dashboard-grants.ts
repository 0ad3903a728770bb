// The dashboard's links and sessions, kept in the sandbox's database so that they belong to the sandbox, not to
// the replica that made them: any replica on the database accepts a session any other opened, and a link still
// opens after the replica that printed it has stopped. Only a digest of each token is kept (SHA-256: a token is
// 256 random bits, so no salt or slow hash is needed), with its organization and when it expires. Each kind is
// bounded per organization: making one past `keep` drops that organization's oldest, never another's.
import { createHash } from "node:crypto";
import type { SqlDatabase, SqlStatement } from "./sql.js";

/** A link's token (opens sessions until it expires) or a session's token (what the page sends). */
export type GrantKind = "link" | "session";

// Created beside the schema of the records (as the request log's table is): a database of an earlier version
// gains it at its first start and keeps its schema version. Times are milliseconds since the epoch (BIGINT: an
// INTEGER is 32 bits on PostgreSQL).
export const DASHBOARD_GRANT_TABLE_SQL = [
  "CREATE TABLE IF NOT EXISTS dashboard_grant (seq INTEGER PRIMARY KEY, digest TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, org TEXT NOT NULL, expires_at BIGINT NOT NULL);",
  "CREATE INDEX IF NOT EXISTS dashboard_grant_org ON dashboard_grant (kind, org, seq);",
  "CREATE INDEX IF NOT EXISTS dashboard_grant_expiry ON dashboard_grant (expires_at);",
].join("\n");

/** The digest kept of a token: the token itself is never stored. */
export function grantDigest(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

export class DashboardGrants {
  private readonly insert: SqlStatement;
  private readonly find: SqlStatement;
  private readonly expire: SqlStatement;
  private readonly trim: SqlStatement;

  /** Run DASHBOARD_GRANT_TABLE_SQL on the database first (Store.open does). */
  constructor(db: SqlDatabase) {
    this.insert = db.prepare("INSERT INTO dashboard_grant (digest, kind, org, expires_at) VALUES (?, ?, ?, ?)");
    this.find = db.prepare("SELECT org FROM dashboard_grant WHERE digest = ? AND kind = ? AND expires_at > ?");
    this.expire = db.prepare("DELETE FROM dashboard_grant WHERE expires_at <= ?");
    this.trim = db.prepare(
      "DELETE FROM dashboard_grant WHERE kind = ? AND org = ? AND seq NOT IN " +
        "(SELECT seq FROM dashboard_grant WHERE kind = ? AND org = ? ORDER BY seq DESC LIMIT ?)",
    );
  }

  /**
   * Keeps a new token's digest for the organization until `expiresAt`; drops every expired grant, and the
   * organization's oldest of this kind beyond the newest `keep`. Run it in a transaction (the store's).
   */
  async add(kind: GrantKind, token: string, org: string, expiresAt: number, now: number, keep: number): Promise<void> {
    await this.expire.run(now);
    await this.insert.run(grantDigest(token), kind, org, expiresAt);
    await this.trim.run(kind, org, kind, org, keep);
  }

  /** The organization a token of this kind opens at `now`, or undefined (unknown, expired, or dropped). */
  async organizationOf(kind: GrantKind, token: string, now: number): Promise<string | undefined> {
    const found = (await this.find.get(grantDigest(token), kind, now)) as { org: string } | undefined;
    return found?.org;
  }
}
