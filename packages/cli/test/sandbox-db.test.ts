import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

  it("exits 2 for an unknown --db-durability", async () => {
    const cli = run(["sandbox", "--port", "0", "--db", join(dir, "x.db"), "--db-durability", "sometimes"], env);
    expect(await cli.code).toBe(2);
    expect(cli.stderr() + cli.stdout()).toContain("--db-durability");
  });
});
