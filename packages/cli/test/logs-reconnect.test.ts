// exchange-kit logs --follow across a restart of the sandbox: a sandbox process on a SQLite file is killed, stays
// away for 5 s, and starts again on the same file and port; the follower, in process, goes on from where it
// stopped. The request log lives in the database, so its numbers go on across the restart.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { signRequest } from "@exchange-kit/signing";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "./run.js";
import { type Child, startChild } from "./support/child.js";

const env = { EXCHANGE_API_KEY: "ek_reconnect_key", EXCHANGE_API_SECRET: "ek_reconnect_secret" };
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "ek-logs-reconnect-"));
const children: Child[] = [];

afterAll(async () => {
  for (const child of children) await child.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** A sandbox process on `db` (in memory when undefined); resolves with it and its URL from the --json ready line. */
async function startSandbox(db: string | undefined, port = "0"): Promise<{ child: Child; url: string }> {
  const args = [bin, "sandbox", "--port", port, ...(db ? ["--db", db] : []), "--auto-progress", "off", "--json"];
  const child = startChild(process.execPath, args, env);
  children.push(child);
  return { child, url: JSON.parse(await child.line('"ready"')).url };
}

async function createCustomer(base: string, ref: string) {
  const signed = await signRequest({
    apiKey: env.EXCHANGE_API_KEY,
    apiSecret: env.EXCHANGE_API_SECRET,
    body: { client_reference_id: ref, full_name: "Asha Verma", alpha_3_country_code: "IND" },
  });
  const response = await fetch(`${base}/cms/api/v1/customer/create`, {
    method: "POST",
    headers: signed.headers,
    body: signed.body,
  });
  return (await response.json()) as { status: boolean; data: { id: string } };
}

const jsonLines = (stdout: string) =>
  stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const refOf = (entry: Record<string, unknown>) =>
  JSON.parse((entry.request as { text: string }).text).client_reference_id as string;

describe("exchange-kit logs --follow while the sandbox restarts", () => {
  it("says once that the sandbox is away and prints every request made after the restart, none twice", async () => {
    const db = join(dir, "requests.db");
    const first = await startSandbox(db);
    const port = new URL(first.url).port;
    // --since: from the first entry of this new database, whenever the follower makes its first read.
    const follower = run(
      ["logs", "--base-url", first.url, "--follow", "--json", "--since", "1d", "--interval", "50"],
      env,
    );
    await createCustomer(first.url, "before-1");
    await createCustomer(first.url, "before-2");
    await until(() => jsonLines(follower.stdout()).filter((l) => l.seq !== undefined).length === 2, "2 entries");

    await first.child.kill();
    await until(() => follower.stdout().includes('"unreachable"'), "the away line");
    await new Promise((r) => setTimeout(r, 5000)); // the outage the issue describes: 5 s with nothing listening
    const second = await startSandbox(db, port);
    const after = Array.from({ length: 30 }, (_, i) => `after-${i}`);
    for (const ref of after) await createCustomer(second.url, ref);
    await until(() => jsonLines(follower.stdout()).filter((l) => l.seq !== undefined).length === 32, "32 entries");
    follower.stop();
    expect(await follower.code).toBe(0);

    const lines = jsonLines(follower.stdout());
    expect(lines.filter((l) => l.sandbox === "unreachable")).toHaveLength(1);
    expect(lines.filter((l) => l.sandbox === "reconnected")).toHaveLength(1);
    const entries = lines.filter((l) => l.seq !== undefined);
    expect(entries.map(refOf)).toEqual(["before-1", "before-2", ...after]);
    const seqs = entries.map((e) => e.seq as number);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
    expect(follower.stderr()).toBe("");
  }, 60_000);

  it("follows a sandbox in memory from the first entry of its new log when it restarts", async () => {
    const first = await startSandbox(undefined);
    const port = new URL(first.url).port;
    const follower = run(
      ["logs", "--base-url", first.url, "--follow", "--json", "--since", "1d", "--interval", "50"],
      env,
    );
    for (const ref of ["memory-1", "memory-2", "memory-3"]) await createCustomer(first.url, ref);
    await until(() => jsonLines(follower.stdout()).filter((l) => l.seq !== undefined).length === 3, "3 entries");
    await first.child.kill();
    await until(() => follower.stdout().includes('"unreachable"'), "the away line");
    const second = await startSandbox(undefined, port);
    await createCustomer(second.url, "memory-after");
    await until(() => follower.stdout().includes("memory-after"), "the entry after the restart");
    follower.stop();
    expect(await follower.code).toBe(0);
    const lines = jsonLines(follower.stdout());
    expect(lines.filter((l) => l.sandbox === "log_started_over")).toHaveLength(1);
    const entries = lines.filter((l) => l.seq !== undefined);
    expect(entries.map(refOf)).toEqual(["memory-1", "memory-2", "memory-3", "memory-after"]);
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 1]);
  }, 60_000);

  it("--events --follow goes on after a restart without printing an event twice", async () => {
    const db = join(dir, "events.db");
    const first = await startSandbox(db);
    const port = new URL(first.url).port;
    const before = await createCustomer(first.url, "event-before");
    const follower = run(["logs", "--base-url", first.url, "--events", "--follow", "--interval", "50"], env);
    await follower.waitFor("following");
    await transition(first.url, before.data.id);
    await follower.waitFor(before.data.id);

    await first.child.kill();
    await follower.waitFor("cannot reach the sandbox");
    const second = await startSandbox(db, port);
    const after = await createCustomer(second.url, "event-after");
    await transition(second.url, after.data.id);
    await follower.waitFor(after.data.id, 30_000);
    follower.stop();
    expect(await follower.code).toBe(0);

    const lines = follower.stdout().trim().split("\n");
    expect(lines.filter((l) => l.includes("cannot reach the sandbox"))).toHaveLength(1);
    expect(lines.filter((l) => l.includes(`CUSTOMER VERIFIED ${before.data.id}`))).toHaveLength(1);
    expect(lines.filter((l) => l.includes(`CUSTOMER VERIFIED ${after.data.id}`))).toHaveLength(1);
  }, 60_000);
});

async function transition(base: string, id: string): Promise<void> {
  const signed = await signRequest({
    apiKey: env.EXCHANGE_API_KEY,
    apiSecret: env.EXCHANGE_API_SECRET,
    body: { status: "VERIFIED" },
  });
  const response = await fetch(`${base}/_sandbox/customers/${id}/transition`, {
    method: "POST",
    headers: signed.headers,
    body: signed.body,
  });
  expect(response.status).toBe(200);
}
