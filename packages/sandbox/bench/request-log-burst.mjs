// The request log under bursts: the sandbox in its own process (bench/serve.mjs, in memory), 20 customers, then
// three bursts of 10,000 signed list requests (each answer ~11 KB, logged capped at 8 KB) at 50 connections; the
// sandbox's RSS after each burst and the log's bounds. The records do not grow, so what grows is the log: with
// the default bound (10,000 entries per organization) each burst replaces the previous one. `BURST`,
// `CONNECTIONS` and `BENCH_LOG_MAX` (the bound) change it. Run after `pnpm build`:
//   node bench/request-log-burst.mjs
import { fork } from "node:child_process";
import { Agent, request } from "node:http";
import { signRequest } from "@exchange-kit/signing";

const BURST = Number(process.env.BURST ?? 10_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const credentials = { apiKey: "bench_key", apiSecret: "bench_secret" };
const child = fork(new URL("./serve.mjs", import.meta.url), {
  env: { ...process.env, BENCH_KEY: credentials.apiKey, BENCH_SECRET: credentials.apiSecret },
});
const ask = (message, key) =>
  new Promise((resolve) => {
    const on = (reply) => {
      if (reply[key] === undefined) return;
      child.off("message", on);
      resolve(reply[key]);
    };
    child.on("message", on);
    if (message) child.send(message);
  });
const url = await ask(undefined, "url");
const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

async function call(method, path, body) {
  const signed = await signRequest({ ...credentials, body });
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, agent, headers: signed.headers }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
    });
    req.on("error", reject);
    req.end(signed.body);
  });
}

async function burst() {
  let next = 0;
  const worker = async () => {
    while (next < BURST) {
      next++;
      await call("GET", "/cms/api/v1/customer/list?per_page=20");
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return performance.now() - started;
}

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(0);
for (let i = 0; i < 20; i++)
  await call("POST", "/cms/api/v1/customer/create", {
    client_reference_id: `burst-${i}`,
    full_name: "Asha Verma",
    alpha_3_country_code: "IND",
  });
const rss = [await ask("rss", "rss")];
const times = [];
for (let round = 0; round < ROUNDS; round++) {
  times.push(await burst());
  rss.push(await ask("rss", "rss"));
}
const page = await call("GET", "/_sandbox/requests?limit=1");
console.log(
  `bursts: ${ROUNDS} × ${BURST} at ${CONNECTIONS} connections (${times.map((t) => t.toFixed(0)).join(", ")} ms)`,
);
console.log(`RSS MB: before ${mb(rss[0])}, after each burst ${rss.slice(1).map(mb).join(", ")}`);
console.log(
  `log kept: seq ${page.data.oldest_seq} to ${page.data.latest_seq}, last entry ${page.data.results[0].response.bytes} B answered, ${Buffer.byteLength(page.data.results[0].response.text)} B kept`,
);
child.send("close");
agent.destroy();
