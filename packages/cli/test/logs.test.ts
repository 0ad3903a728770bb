// exchange-kit logs against a real sandbox process (the built cli's `sandbox`, killed with SIGKILL after).
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { signRequest } from "@exchange-kit/signing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "./run.js";

const env = { EXCHANGE_API_KEY: "ek_logs_key", EXCHANGE_API_SECRET: "ek_logs_secret" };
const credentials = { apiKey: env.EXCHANGE_API_KEY, apiSecret: env.EXCHANGE_API_SECRET };
const children: ChildProcess[] = [];

/** A sandbox in its own process; resolves with its URL from the --json ready line. */
async function sandboxProcess(...flags: string[]): Promise<string> {
  const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
  const child = spawn(process.execPath, [bin, "sandbox", "--port", "0", "--auto-progress", "off", "--json", ...flags], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  let out = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      out += String(chunk);
      if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!).url);
    });
    child.once("exit", (code) => reject(new Error(`sandbox exited with ${code}: ${out}`)));
  });
}

async function call(base: string, method: "GET" | "POST", path: string, body?: object) {
  const signed = await signRequest({ ...credentials, body });
  const response = await fetch(`${base}${path}`, { method, headers: signed.headers, body: signed.body });
  return (await response.json()) as { status: boolean; err_code?: string; data: { id: string } };
}

const createCustomer = (base: string, ref: string, extra: object = {}) =>
  call(base, "POST", "/cms/api/v1/customer/create", {
    client_reference_id: ref,
    full_name: "Asha Verma",
    alpha_3_country_code: "IND",
    ...extra,
  });

/** The JSON lines printed so far. */
const jsonLines = (stdout: string) =>
  stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

let base: string;
beforeAll(async () => {
  base = await sandboxProcess();
});

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
});

describe("exchange-kit logs", () => {
  it("prints the latest requests, one line each: time, method, operationId, status, err_code and latency", async () => {
    await createCustomer(base, "logs-first", { phone: "9876500001" });
    const refused = await createCustomer(base, "logs-second", { phone: "9876500001" });
    expect(refused.err_code).toBe("USR_DUPLICATE_CONTACT");
    const logs = run(["logs", "--base-url", base, "--limit", "2"], env);
    expect(await logs.code).toBe(0);
    expect(logs.stdout().trim().split("\n")).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d POST createCustomer 200 \d+ ms$/),
      expect.stringMatching(/^\d\d:\d\d:\d\d POST createCustomer 400 USR_DUPLICATE_CONTACT \d+ ms$/),
    ]);
  });

  it("filters by status, err_code and operationId", async () => {
    const logs = run(
      ["logs", "--base-url", base, "--json", "--status", "4xx", "--err-code", "USR_DUPLICATE_CONTACT"],
      env,
    );
    expect(await logs.code).toBe(0);
    const entries = jsonLines(logs.stdout());
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.status === 400 && e.err_code === "USR_DUPLICATE_CONTACT")).toBe(true);
    const none = run(["logs", "--base-url", base, "--json", "--operation-id", "getPayout"], env);
    expect(await none.code).toBe(0);
    expect(none.stdout()).toBe("");
  });

  it("--follow shows a burst of requests in order, each once, with no gap", async () => {
    const since = new Date().toISOString();
    const follower = run(["logs", "--base-url", base, "--follow", "--json", "--since", since, "--interval", "50"], env);
    // 1,000 creates on 20 connections at once, then 50 one after another (whose order is known).
    const burst = Array.from({ length: 1000 }, (_, i) => `burst-${i}`);
    for (let i = 0; i < burst.length; i += 20)
      await Promise.all(burst.slice(i, i + 20).map((ref) => createCustomer(base, ref)));
    const sequential = Array.from({ length: 50 }, (_, i) => `seq-${i}`);
    for (const ref of sequential) await createCustomer(base, ref);
    await until(() => jsonLines(follower.stdout()).length >= 1050, "1,050 lines");
    follower.stop();
    expect(await follower.code).toBe(0);
    const entries = jsonLines(follower.stdout());
    expect(entries).toHaveLength(1050);
    const seqs = entries.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0] + i));
    const refs = entries.map((e) => JSON.parse(e.request.text).client_reference_id);
    expect(new Set(refs.slice(0, 1000))).toEqual(new Set(burst));
    expect(refs.slice(1000)).toEqual(sequential);
  });

  it("--follow says how many requests the log dropped before they were read", async () => {
    const small = await sandboxProcess("--request-log-size", "10");
    const follower = run(
      ["logs", "--base-url", small, "--follow", "--json", "--since", "1d", "--interval", "2000"],
      env,
    );
    // The first request read tells the follower runs; the 29 after it, sent within its 2 s pause, overflow the
    // 10 kept. Whatever the timing, every request is either printed or counted as dropped.
    await call(small, "GET", "/cms/api/v1/customer/list");
    await until(() => jsonLines(follower.stdout()).some((e) => e.seq === 1), "the first request");
    for (let i = 0; i < 29; i++) await call(small, "GET", "/cms/api/v1/customer/list");
    await until(() => jsonLines(follower.stdout()).some((e) => e.seq === 30), "the 30th request");
    follower.stop();
    expect(await follower.code).toBe(0);
    const lines = jsonLines(follower.stdout());
    const printed = lines.filter((l) => l.seq !== undefined);
    const dropped = lines.filter((l) => l.dropped !== undefined).reduce((sum, l) => sum + l.dropped, 0);
    expect(dropped).toBeGreaterThan(0);
    expect(dropped + printed.length).toBe(30);
    const seqs = printed.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(seqs.slice(-10)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
  });

  it("--events --follow prints each event and every delivery attempt with its answer, latency and next retry", async () => {
    let answered = 0;
    const receiver: Server = createServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(answered++ === 0 ? 500 : 200).end());
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    try {
      await call(base, "POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: hook });
      const customer = await createCustomer(base, "events-1");
      const follower = run(["logs", "--base-url", base, "--events", "--follow", "--interval", "50"], env);
      await follower.waitFor("following");
      await call(base, "POST", `/_sandbox/customers/${customer.data.id}/transition`, { status: "VERIFIED" });
      await follower.waitFor("delivered");
      follower.stop();
      expect(await follower.code).toBe(0);
      const lines = follower.stdout().trim().split("\n").slice(1);
      expect(lines).toEqual([
        expect.stringMatching(new RegExp(`^\\d\\d:\\d\\d:\\d\\d CUSTOMER VERIFIED ${customer.data.id} event \\S+$`)),
        expect.stringMatching(
          /^\d\d:\d\d:\d\d {3}attempt 1 → 500 \d+ ms \(initial, .+\/hooks\), next retry \d\d:\d\d:\d\d$/,
        ),
        expect.stringMatching(/^\d\d:\d\d:\d\d {3}attempt 2 → 200 \d+ ms \(initial, .+\/hooks\), delivered$/),
      ]);
    } finally {
      await new Promise((r) => receiver.close(r));
    }
  });

  it("exits 1 naming the URL when no sandbox answers", async () => {
    const logs = run(["logs", "--base-url", "http://127.0.0.1:9"], env);
    expect(await logs.code).toBe(1);
    expect(logs.stderr()).toContain("http://127.0.0.1:9");
  });
});
