// What the sandbox's HTTP benches share: signed requests as the client makes them, a server in its own child
// process (serve.mjs, baseline.mjs), and one autocannon case against one URL or several (replicas: autocannon
// gives connection i the URL i mod n, a round-robin spread of the connections).
import { fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { signRequestSync } from "@exchange-kit/signing";

export const KEY = "bench_key";
export const SECRET = "bench_secret";

export const LIST = "/cms/api/v1/customer/list?page=1&per_page=20";
export const HISTORY = "/pos/api/v1/payout/history?page=1&per_page=20";
export const CREATE = "/cms/api/v1/customer/create";

/** A request signed once (its headers are reused for every request of a case). */
export function signed(method, body) {
  const request = signRequestSync({ apiKey: KEY, apiSecret: SECRET, body });
  return { method, headers: request.headers, body: request.body };
}

/** A create whose body (a new client_reference_id each time) and signature are made per request. */
export function uniqueCreate() {
  return {
    requests: [
      {
        method: "POST",
        setupRequest: (req) => {
          const { headers, body } = signed("POST", {
            client_reference_id: randomUUID(),
            full_name: "Bench Customer",
            alpha_3_country_code: "IND",
          });
          return { ...req, headers, body };
        },
      },
    ],
  };
}

/** GETs of the given paths in turn (one signature: a GET's signed body is empty). */
export function rotating(paths) {
  let next = 0;
  const { headers } = signed("GET");
  return {
    requests: [
      {
        method: "GET",
        setupRequest: (req) => ({ ...req, headers, path: paths[next++ % paths.length] }),
      },
    ],
  };
}

export function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const children = new Set();

/** Kills (SIGKILL) every server child still running, started or starting: for an interrupted run. */
export function killChildren() {
  for (const child of children) child.kill("SIGKILL");
}

/**
 * Forks a bench server script (relative to this directory) and waits for its first message (its URL and
 * facts). `stop()` asks it to close and waits for its exit.
 *
 * @example
 * const server = await startChild("./serve.mjs", { BENCH_ROWS: "1000" }); // ... await server.stop();
 */
export async function startChild(script, env = {}) {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), {
    env: { ...process.env, BENCH_KEY: KEY, BENCH_SECRET: SECRET, ...env },
    stdio: "inherit",
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  const ready = await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  const ask = (what) =>
    new Promise((resolve) => {
      child.once("message", resolve);
      child.send(what);
    });
  return {
    ...ready,
    pid: child.pid,
    rss: async () => (await ask("rss")).rss,
    /** CPU time the process has used (user + system, all its threads), in microseconds. */
    cpuUs: async () => {
      const { cpu } = await ask("cpu");
      return cpu.user + cpu.system;
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", resolve);
        child.send("close");
      }),
  };
}

/** Waits until the server has answered everything queued by the previous case (it answers in order). */
async function drain(url) {
  await fetch(`${url}${LIST}`, signed("GET"))
    .then((r) => r.arrayBuffer())
    .catch(() => {});
}

/**
 * One case: `connections` connections for `seconds` on `path` of one server, or of several (spread in turn).
 *
 * @example
 * await fire(["http://127.0.0.1:4010"], LIST, signed("GET"), { seconds: 5, connections: 100 });
 */
export async function fire(urls, path, request, { seconds, connections }) {
  const targets = Array.isArray(urls) ? urls : [urls];
  await Promise.all(targets.map(drain));
  const result = await autocannon({
    url: targets.map((url) => `${url}${path}`),
    connections,
    duration: seconds,
    ...request,
  });
  // Requests still queued when the time is up would otherwise be charged to the next case.
  await Promise.all(targets.map(drain));
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    /** The statuses of the answers that were not 2xx, with how many of each. */
    failures: Object.entries(result.statusCodeStats ?? {})
      .filter(([status]) => !status.startsWith("2"))
      .map(([status, { count }]) => `${status}×${count}`)
      .join(" "),
    errors: result.errors + result.timeouts,
  };
}
