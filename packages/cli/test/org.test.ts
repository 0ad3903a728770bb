// exchange-kit org add|list and sandbox --admin-token, against a real sandbox started by the cli itself: an
// organization added through the command can call the sandbox at once, the list never shows a secret, and a
// sandbox without an admin token (or a wrong token) refuses, with exit 1 and the sandbox's reason.
import { signRequest } from "@exchange-kit/signing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminTokenOf, organizationLine } from "../src/commands/org.js";
import { UsageError } from "../src/output.js";
import { type Captured, run } from "./run.js";

const TOKEN = "cli-admin-token-0123456789abcdef";
const env = { EXCHANGE_API_KEY: "ek_org_key", EXCHANGE_API_SECRET: "ek_org_secret" };
let sandbox: Captured;
let base: string;

async function runOrg(args: string[], extra: Record<string, string> = {}) {
  const captured = run(["org", ...args], { EXCHANGE_BASE_URL: base, ...extra });
  return { code: await captured.code, stdout: captured.stdout(), stderr: captured.stderr() };
}

async function listCustomers(apiKey: string, apiSecret: string): Promise<number> {
  const signed = await signRequest({ apiKey, apiSecret });
  return (await fetch(`${base}/cms/api/v1/customer/list`, { headers: signed.headers })).status;
}

beforeAll(async () => {
  sandbox = run(["sandbox", "--port", "0", "--json"], { ...env, EXCHANGE_KIT_SANDBOX_ADMIN_TOKEN: TOKEN });
  base = JSON.parse((await sandbox.waitFor("\n")).split("\n")[0]!).url;
});

afterAll(async () => {
  sandbox.stop();
  await sandbox.code;
});

describe("exchange-kit org", () => {
  it("adds an organization whose printed key and secret call the sandbox at once", async () => {
    const added = await runOrg(["add", "--name", "QA team", "--admin-token", TOKEN, "--json"]);
    expect(added).toMatchObject({ code: 0, stderr: "" });
    const org = JSON.parse(added.stdout);
    expect(org).toMatchObject({ name: "QA team" });
    expect(await listCustomers(org.api_key, org.api_secret)).toBe(200);
  });

  it("prints the export line of the new organization once, in its human output", async () => {
    const added = await runOrg(["add", "--name", "Ops"], { EXCHANGE_KIT_SANDBOX_ADMIN_TOKEN: TOKEN });
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(
      /^added Ops \(id [0-9a-f-]{36}\)\n {2}export EXCHANGE_API_KEY=sbx_\w+ EXCHANGE_API_SECRET=\S+\n/,
    );
  });

  it("lists every organization with its key and never a secret", async () => {
    const added = JSON.parse((await runOrg(["add", "--name", "Listed", "--admin-token", TOKEN, "--json"])).stdout);
    const listed = await runOrg(["list", "--admin-token", TOKEN]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`Listed  ${added.api_key}`);
    expect(listed.stdout).toContain(env.EXCHANGE_API_KEY);
    expect(listed.stdout).not.toContain(added.api_secret);
    expect(listed.stdout).not.toContain(env.EXCHANGE_API_SECRET);
  });

  it("exits 1 with the sandbox's 401 for a wrong admin token, and 2 for a blank name", async () => {
    const wrong = await runOrg(["list", "--admin-token", `${TOKEN}x`]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/401 AUTH_UNAUTHORIZED: Missing or wrong admin token/);
    expect(wrong.stderr).not.toContain(TOKEN);
    const blank = await runOrg(["add", "--name", " ", "--admin-token", TOKEN]);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toMatch(/name: Must be a non-empty string/);
  });

  it("says how to reach the sandbox when nothing listens at the URL", async () => {
    const captured = run(["org", "list", "--admin-token", TOKEN, "--base-url", "http://127.0.0.1:1"], {});
    expect(await captured.code).toBe(1);
    expect(captured.stderr()).toMatch(/cannot reach the sandbox at http:\/\/127\.0\.0\.1:1/);
  });

  it("reads the admin token from the flag, then the environment, and is a usage error without either", () => {
    expect(adminTokenOf({ "admin-token": "a" }, { EXCHANGE_KIT_SANDBOX_ADMIN_TOKEN: "b" })).toBe("a");
    expect(adminTokenOf({}, { EXCHANGE_KIT_SANDBOX_ADMIN_TOKEN: "b" })).toBe("b");
    expect(() => adminTokenOf({}, {})).toThrow(UsageError);
  });

  it("prints one organization as its name, key, ID and date", () => {
    const line = organizationLine({ id: "i-1", name: "QA", api_key: "sbx_1", created_at: "2026-01-01T00:00:00.000Z" });
    expect(line).toBe("QA  sbx_1  (id i-1, added 2026-01-01T00:00:00.000Z)");
  });
});

describe("exchange-kit sandbox without an admin token", () => {
  it("refuses org add with the sandbox's 403, which says how to turn the admin API on", async () => {
    const plain = run(["sandbox", "--port", "0", "--json"], env);
    try {
      const url = JSON.parse((await plain.waitFor("\n")).split("\n")[0]!).url;
      const captured = run(["org", "add", "--name", "x", "--admin-token", TOKEN, "--base-url", url], {});
      expect(await captured.code).toBe(1);
      expect(captured.stderr()).toMatch(
        /403 AUTH_UNAUTHORIZED: The admin API is off: start the sandbox with --admin-token/,
      );
    } finally {
      plain.stop();
      await plain.code;
    }
  });
});
