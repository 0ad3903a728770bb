import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSandbox } from "@exchange-kit/sandbox";
import { signRequest } from "@exchange-kit/signing";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "./run.js";

const env = { EXCHANGE_API_KEY: "ek_db_key", EXCHANGE_API_SECRET: "ek_db_secret" };
const dir = mkdtempSync(join(tmpdir(), "cli-sandbox-db-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function createCustomer(base: string, reference: string): Promise<number> {
  const signed = await signRequest({
    apiKey: env.EXCHANGE_API_KEY,
    apiSecret: env.EXCHANGE_API_SECRET,
    body: { client_reference_id: reference, full_name: "Asha Rao", alpha_3_country_code: "IND" },
  });
  return (
    await fetch(`${base}/cms/api/v1/customer/create`, { method: "POST", headers: signed.headers, body: signed.body })
  ).status;
}

describe("exchange-kit sandbox --db", () => {
  it("refuses a second sandbox on the same file with a message naming it, and keeps serving the first", async () => {
    const file = join(dir, "one.db");
    const first = run(["sandbox", "--port", "0", "--db", file, "--json"], env);
    const base = JSON.parse((await first.waitFor("\n")).split("\n")[0]!).url as string;
    const second = run(["sandbox", "--port", "0", "--db", file, "--json"], env);
    expect(await second.code).toBe(1);
    expect(second.stdout() + second.stderr()).toContain(file);
    expect(second.stdout() + second.stderr()).toContain("in use by another sandbox");
    expect(await createCustomer(base, "still-serving")).toBe(200);
    first.stop();
    expect(await first.code).toBe(0);
  });

  it("exits 1 with one line naming a damaged file and what to do, instead of serving 500s", async () => {
    const file = join(dir, "damaged.db");
    const sandbox = await createSandbox({ db: file, organizations: [{ apiKey: "k", apiSecret: "s" }] });
    await sandbox.close();
    // One page of the customer table overwritten, as a failing disk would.
    const db = new DatabaseSync(file, { readOnly: true });
    const { page_size } = db.prepare("PRAGMA page_size").get() as { page_size: number };
    const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'customer'").get() as {
      rootpage: number;
    };
    db.close();
    const fd = openSync(file, "r+");
    writeSync(fd, Buffer.alloc(page_size, 0xa5), 0, page_size, (rootpage - 1) * page_size);
    closeSync(fd);

    const cli = run(["sandbox", "--port", "0", "--db", file], env);
    expect(await cli.code).toBe(1);
    expect(cli.stdout()).toBe("");
    expect(cli.stderr()).toMatch(
      /^error: \S+damaged\.db is damaged \(PRAGMA quick_check: [^\n]+\): restore it from a backup, or delete it to start afresh[^\n]*\n$/,
    );
    expect(cli.stderr()).toContain(file);
  });

  it("exits 1 with one line naming the path when --db is a directory", async () => {
    const path = join(dir, "a-directory");
    mkdirSync(path);
    const cli = run(["sandbox", "--port", "0", "--db", path, "--json"], env);
    expect(await cli.code).toBe(1);
    const lines = cli.stderr().trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      error: "FAILED",
      message: `${path} is a directory: give --db a file path, e.g. ${join(path, "sandbox.db")}.`,
    });
  });

  it("exits 1 with one line, no password and nothing created, for a PostgreSQL server it cannot reach", async () => {
    const url = "postgres://sandbox:s3cret-pw@127.0.0.1:1/sandbox";
    const cli = run(["sandbox", "--port", "0", "--db", url, "--json"], env);
    expect(await cli.code).toBe(1);
    const lines = cli.stderr().trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    const { message } = JSON.parse(lines[0]!) as { message: string };
    expect(message).toMatch(/^postgres:\/\/sandbox:\*\*\*@127\.0\.0\.1:1\/sandbox: PostgreSQL cannot be reached \(/);
    expect(message).not.toContain("s3cret-pw");
    // Earlier versions took the URL for a file path and made a directory named "postgres:" here.
    expect(existsSync(join(process.cwd(), "postgres:"))).toBe(false);
  });

  it("exits 1 with one line naming the scheme when --db is a URL of another database, and creates nothing", async () => {
    const before = readdirSync(process.cwd());
    const cli = run(["sandbox", "--port", "0", "--db", "mysql://exchange:s3cret-pw@127.0.0.1:3306/sandbox"], env);
    expect(await cli.code).toBe(1);
    expect(cli.stdout()).toBe("");
    expect(cli.stderr()).toBe(
      "error: --db is a mysql:// URL, and the only database URL this sandbox takes is postgres://: give --db a PostgreSQL URL or a SQLite file path (e.g. ./sandbox.db), or leave it out to keep state in memory. Nothing was created.\n",
    );
    expect(readdirSync(process.cwd())).toEqual(before);
  });

  it("exits 2 for an unknown --db-durability", async () => {
    const cli = run(["sandbox", "--port", "0", "--db", join(dir, "x.db"), "--db-durability", "sometimes"], env);
    expect(await cli.code).toBe(2);
    expect(cli.stderr() + cli.stdout()).toContain("--db-durability");
  });
});
