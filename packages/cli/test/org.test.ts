// exchange-kit org add|list|link and sandbox --admin-token, against a real sandbox started by the cli itself: an
// organization added through the command can call the sandbox at once, the list never shows a secret, every
// organization's dashboard opens with the link the commands print (after a restart too), and a sandbox without an
// admin token (or a wrong token) refuses, with exit 1 and the sandbox's reason.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signRequest } from "@exchange-kit/signing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminTokenOf, linkThrough, organizationLine } from "../src/commands/org.js";
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

/** The organization a printed dashboard link opens a session of (its name), or the sandbox's refusal status. */
async function openedBy(link: string): Promise<string | number> {
  const url = new URL(link);
  const answer = await fetch(`${url.origin}/_dashboard/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ link: url.hash.slice("#token=".length) }),
  });
  if (answer.status !== 201) return answer.status;
  return ((await answer.json()) as { organization: { name: string } }).organization.name;
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

  it("prints a dashboard link with the new organization that opens its dashboard", async () => {
    const added = await runOrg(["add", "--name", "Linked", "--admin-token", TOKEN]);
    const link = /dashboard (\S+)/.exec(added.stdout)?.[1];
    expect(link).toMatch(new RegExp(`^${base}/_dashboard/#token=[\\w-]{43}$`));
    expect(await openedBy(link!)).toBe("Linked");
  });

  it("prints a new dashboard link of any organization, by name or API key, each opening that organization", async () => {
    const added = JSON.parse((await runOrg(["add", "--name", "Second team", "--admin-token", TOKEN, "--json"])).stdout);
    const byName = await runOrg(["link", "Second team", "--admin-token", TOKEN]);
    expect(byName.code).toBe(0);
    const fromName = /dashboard (\S+)/.exec(byName.stdout)![1]!;
    expect(await openedBy(fromName)).toBe("Second team");
    const byKey = JSON.parse((await runOrg(["link", env.EXCHANGE_API_KEY, "--admin-token", TOKEN, "--json"])).stdout);
    expect(byKey.organization).toMatchObject({ api_key: env.EXCHANGE_API_KEY });
    expect(await openedBy(byKey.dashboard_url)).toBe("Default organization");
    expect(byKey.dashboard_url).not.toBe(fromName);
    expect(byName.stdout).not.toContain(added.api_secret);
  });

  it("exits 1 with the sandbox's 404 for an organization nobody has, and 2 without one", async () => {
    const unknown = await runOrg(["link", "Nobody", "--admin-token", TOKEN]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/404 NOT_FOUND: No organization has this name, API key or ID/);
    expect((await runOrg(["link", "--admin-token", TOKEN])).code).toBe(2);
  });

  it("says under each listed organization how to open its dashboard", async () => {
    const listed = await runOrg(["list", "--admin-token", TOKEN]);
    expect(listed.stdout).toContain(`(id `);
    expect(listed.stdout).toContain(`\n  dashboard: exchange-kit org link ${env.EXCHANGE_API_KEY}`);
  });

  it("builds a link from the URL it called, so one asked through a balancer opens through it", () => {
    const path = "/_dashboard/#token=abc";
    expect(linkThrough("http://lb.example:8080", { dashboard_path: path })).toBe(`http://lb.example:8080${path}`);
    expect(linkThrough("http://lb.example:8080/", { dashboard_path: path })).toBe(`http://lb.example:8080${path}`);
    expect(linkThrough("http://lb.example:8080", {})).toBeUndefined();
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

describe("exchange-kit sandbox restarted on a SQLite file", () => {
  it("prints a working dashboard link of every organization, added ones too, in its ready line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "exchange-kit-org-"));
    const db = join(dir, "sandbox.db");
    const start = () =>
      run(["sandbox", "--port", "0", "--json", "--db", db], { ...env, EXCHANGE_KIT_SANDBOX_ADMIN_TOKEN: TOKEN });
    try {
      const first = start();
      const url = JSON.parse((await first.waitFor("\n")).split("\n")[0]!).url;
      const added = run(["org", "add", "--name", "Added later", "--admin-token", TOKEN, "--base-url", url], {});
      expect(await added.code).toBe(0);
      first.stop();
      await first.code;
      const second = start();
      try {
        const ready = JSON.parse((await second.waitFor("\n")).split("\n")[0]!);
        const names = ready.dashboard.map((d: { name: string }) => d.name);
        expect(names).toEqual(["Default organization", "Added later"]);
        for (const link of ready.dashboard) expect(await openedBy(link.url)).toBe(link.name);
        // The link `org add` printed before the restart still opens.
        expect(await openedBy(/dashboard (\S+)/.exec(added.stdout())![1]!.replace(url, ready.url))).toBe("Added later");
      } finally {
        second.stop();
        await second.code;
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
