// The team sandbox as examples/team-sandbox/ sets it up: Debian's nginx with that nginx.conf (its ports swapped
// for free ones) in front of two `exchange-kit sandbox` replicas on a throwaway PostgreSQL. The test talks to
// nginx only, as a team's services would: the API, the readiness probe, `exchange-kit logs`, and the dashboard
// (in Chromium, and its live stream over plain HTTP) through the balancer.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { signRequest } from "@exchange-kit/signing";
import { findChromium, launchChromium } from "@exchange-kit/test-servers/chromium";
import { createDatabase, type PostgresServer, startPostgres } from "@exchange-kit/test-servers/postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "./run.js";
import { type Child, startChild } from "./support/child.js";
import { freePort, type Nginx, startNginx } from "./support/nginx.js";

const env = { EXCHANGE_API_KEY: "ek_team_key", EXCHANGE_API_SECRET: "ek_team_secret" };
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const example = fileURLToPath(new URL("../../../examples/team-sandbox/nginx.conf", import.meta.url));

let postgres: PostgresServer;
let db: string;
let nginx: Nginx;
let base: string;
const replicas: Array<{ port: number; child: Child; dashboard: string }> = [];

/** A replica as the guide starts one (plus --verbose, so the test sees which replica served what). */
async function startReplica(port: number): Promise<{ port: number; child: Child; dashboard: string }> {
  const args = [bin, "sandbox", "--port", String(port), "--db", db, "--auto-progress", "off", "--verbose", "--json"];
  const child = startChild(process.execPath, args, env);
  const ready = JSON.parse(await child.line('"ready"', 60_000)) as { dashboard: Array<{ url: string }> };
  return { port, child, dashboard: ready.dashboard[0]!.url };
}

/** A replica's dashboard link, opened through the balancer: its path and token after the balancer's URL. */
function throughBalancer(link: string): string {
  const url = new URL(link);
  return `${base}${url.pathname}${url.hash}`;
}

/** The example's configuration with its three ports (balancer, replica 1, replica 2) swapped for these. */
function exampleConfig(balancer: number, ports: number[]): string {
  const text = readFileSync(example, "utf8");
  expect(text).toContain("listen 127.0.0.1:4020;");
  return text
    .replace("listen 127.0.0.1:4020;", `listen 127.0.0.1:${balancer};`)
    .replace("server 127.0.0.1:4021 ", `server 127.0.0.1:${ports[0]} `)
    .replace("server 127.0.0.1:4022 ", `server 127.0.0.1:${ports[1]} `);
}

beforeAll(async () => {
  postgres = await startPostgres();
  db = await createDatabase(postgres.url, "team_sandbox");
  const ports = [await freePort(), await freePort()];
  const balancer = await freePort();
  replicas.push(...(await Promise.all(ports.map(startReplica))));
  base = `http://127.0.0.1:${balancer}`;
  nginx = await startNginx(exampleConfig(balancer, ports), async () => (await fetch(`${base}/_sandbox/ready`)).ok);
}, 120_000);

afterAll(async () => {
  await nginx?.stop();
  for (const replica of replicas) await replica.child.kill();
  postgres?.stop();
});

async function call(method: "GET" | "POST", path: string, body?: object) {
  const signed = await signRequest({ apiKey: env.EXCHANGE_API_KEY, apiSecret: env.EXCHANGE_API_SECRET, body });
  const response = await fetch(`${base}${path}`, { method, headers: signed.headers, body: signed.body });
  return { status: response.status, body: (await response.json()) as { data: { id: string } } };
}

const createCustomer = (ref: string) =>
  call("POST", "/cms/api/v1/customer/create", {
    client_reference_id: ref,
    full_name: "Asha Verma",
    alpha_3_country_code: "IND",
  });

/**
 * Creates a customer and waits until its request is in the log (read through the balancer). Until replicas
 * number the shared request log without colliding (issue 33, item 3: two replicas' batches kept at the same
 * moment take the same number and one is dropped), the next request waits for this one's batch.
 */
async function createLogged(ref: string): Promise<void> {
  expect((await createCustomer(ref)).status).toBe(200);
  const logged = async () => {
    const signed = await signRequest({ apiKey: env.EXCHANGE_API_KEY, apiSecret: env.EXCHANGE_API_SECRET });
    const query = "?order=desc&limit=1&operation_id=createCustomer";
    const page = await fetch(`${base}/_sandbox/requests${query}`, { headers: signed.headers });
    if (!page.ok) return false;
    const [latest] = ((await page.json()) as { data: { results: Array<Record<string, unknown>> } }).data.results;
    return latest !== undefined && refOf(latest) === ref;
  };
  await until(logged, `${ref} in the request log`);
}

/** Waits until the balancer passes requests on again (a replica it saw fail is left out for fail_timeout). */
const balancerReady = () => until(async () => (await fetch(`${base}/_sandbox/ready`)).status === 200, "readiness");

/**
 * Waits until the balancer sends requests to `replica` again: nginx leaves a replica it saw fail out for
 * fail_timeout, and a restarted replica logs (--verbose) the first request it gets.
 */
async function inRotation(replica: { child: Child }): Promise<void> {
  await until(async () => {
    await call("GET", "/cms/api/v1/customer/list");
    return replica.child.stderr().includes("GET /cms/api/v1/customer/list");
  }, "the restarted replica back in rotation");
}

const jsonLines = (stdout: string) =>
  stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const refOf = (entry: Record<string, unknown>) =>
  JSON.parse((entry.request as { text: string }).text).client_reference_id as string;

describe("the team sandbox behind nginx (examples/team-sandbox)", () => {
  it("serves writes and reads through the balancer on both replicas, each write read back every time", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      await createLogged(`team-${i}`);
      const found = await call("GET", `/cms/api/v1/customer/list?client_reference_id=team-${i}`);
      ids.push((found.body.data as unknown as { results: Array<{ id: string }> }).results[0]!.id);
    }
    for (const id of ids)
      for (let read = 0; read < 2; read++) expect((await call("GET", `/cms/api/v1/customer/${id}`)).status).toBe(200);
    // Round robin: each replica answered some of them (--verbose logs every request on its stderr).
    for (const replica of replicas)
      expect(replica.child.stderr()).toMatch(/^(GET|POST) \/cms\/api\/v1\/customer\S* 200$/m);
  });

  it("prints the requests made through the balancer with exchange-kit logs", async () => {
    const logs = run(
      ["logs", "--base-url", base, "--json", "--limit", "1000", "--operation-id", "createCustomer"],
      env,
    );
    expect(await logs.code).toBe(0);
    const refs = jsonLines(logs.stdout()).map(refOf);
    expect(refs).toEqual(Array.from({ length: 6 }, (_, i) => `team-${i}`));
  });

  it("shows the dashboard in Chromium through the balancer, on every load and live, while a replica is killed", async () => {
    const executable = findChromium();
    if (!executable) throw new Error("Chromium is required: apt-get install chromium (.ci/run does)");
    const browser = await launchChromium(executable);
    try {
      const page = await browser.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(throughBalancer(replicas[0]!.dashboard));
      await page.locator("#live", { hasText: "Live" }).waitFor();
      const first = await call("GET", "/cms/api/v1/customer/list?client_reference_id=team-0");
      const firstId = (first.body.data as unknown as { results: Array<{ id: string }> }).results[0]!.id;
      // Round robin: each load's calls go to both replicas; the session opened on one is the other's too.
      for (let load = 0; load < 4; load++) {
        await page.reload();
        await page.locator(`a[href="#/record/customers/${firstId}"]`).waitFor();
      }
      await page.locator("#live", { hasText: "Live" }).waitFor();
      const created = await createCustomer("live-in-chromium");
      await page.locator(`a[href="#/record/customers/${created.body.data.id}"]`).waitFor();
      // A replica goes away: the page's stream (on either) comes back through the balancer, and stays live.
      await replicas[1]!.child.kill();
      const after = await createCustomer("live-after-kill");
      await page.locator(`a[href="#/record/customers/${after.body.data.id}"]`).waitFor({ timeout: 30_000 });
      await page.locator("#live", { hasText: "Live" }).waitFor();
    } finally {
      await browser.close();
      replicas[1] = await startReplica(replicas[1]!.port);
      await inRotation(replicas[1]!);
    }
  }, 120_000);

  it("logs --follow through the balancer prints every request once while replicas are killed and restarted", async () => {
    const since = new Date().toISOString();
    const follower = run(["logs", "--base-url", base, "--follow", "--json", "--since", since, "--interval", "50"], env);
    const refs = (from: number, count: number) => Array.from({ length: count }, (_, i) => `follow-${from + i}`);
    for (const ref of refs(0, 5)) await createLogged(ref);
    // One replica gone: nginx passes each request to the other (a refused connection was never sent).
    await replicas[0]!.child.kill();
    for (const ref of refs(5, 5)) await createLogged(ref);
    // Both gone: nginx answers 502, and the follower says once that the sandbox is away; then one comes back.
    await replicas[1]!.child.kill();
    await until(() => follower.stdout().includes('"unreachable"'), "the away line");
    expect((await fetch(`${base}/_sandbox/ready`)).status).toBe(502);
    replicas[0] = await startReplica(replicas[0]!.port);
    await balancerReady();
    for (const ref of refs(10, 5)) await createLogged(ref);
    await until(() => jsonLines(follower.stdout()).filter((l) => l.seq !== undefined).length >= 15, "15 entries");
    follower.stop();
    expect(await follower.code).toBe(0);
    const lines = jsonLines(follower.stdout());
    expect(lines.filter((l) => l.sandbox === "unreachable")).toHaveLength(1);
    expect(lines.filter((l) => l.sandbox === "reconnected")).toHaveLength(1);
    expect(lines.filter((l) => l.seq !== undefined).map(refOf)).toEqual(refs(0, 15));
  }, 90_000);

  it("passes the dashboard's live updates through unbuffered", async () => {
    // A session exchanged through the balancer, as the page does it, then the stream with its header.
    const token = new URL(replicas[0]!.dashboard).hash.slice("#token=".length);
    const opened = await fetch(`${base}/_dashboard/api/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ link: token }),
    });
    expect(opened.status).toBe(201);
    const session = ((await opened.json()) as { token: string }).token;
    const stop = new AbortController();
    const stream = await fetch(`${base}/_dashboard/api/stream`, {
      headers: { authorization: `Bearer ${session}` },
      signal: stop.signal,
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    let text = "";
    const read = async (wanted: string) => {
      while (!text.includes(wanted)) text += new TextDecoder().decode((await reader.read()).value);
    };
    await read("retry: 1000");
    // One small message: a buffering proxy would hold it until its buffer filled or the stream ended.
    expect((await createCustomer("live-through-nginx")).status).toBe(200);
    await read("event: update");
    stop.abort();
  }, 60_000);
});
