// Requests per second and latency of the sandbox and of Prism (serving the same bundled spec) for a signed GET
// and a signed POST on loopback, measured with autocannon in one run. Each server runs in its own process.
// Usage: pnpm bench   (env BENCH_SECONDS, BENCH_CONNECTIONS)
import { fork, spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200);
const KEY = "bench_key";
const SECRET = "bench_secret";
const spec = fileURLToPath(new URL("../src/generated/spec.json", import.meta.url));
const prismBin = fileURLToPath(new URL("../../../node_modules/.bin/prism", import.meta.url));

function signed(method, body) {
  const raw = body === undefined ? undefined : JSON.stringify(body);
  const ts = String(Math.floor(Date.now() / 1000));
  const sig = createHmac("sha256", SECRET).update(`${KEY}|${ts}|${raw ?? "{}"}`).digest("base64");
  const headers = { "X-API-KEY": KEY, "X-TIMESTAMP": ts, "X-SIGNATURE": sig };
  if (raw !== undefined) headers["Content-Type"] = "application/json";
  return { method, headers, body: raw };
}

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startChild(script) {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), { env: { ...process.env, BENCH_KEY: KEY, BENCH_SECRET: SECRET }, stdio: "inherit" });
  const { url } = await new Promise((resolve) => child.once("message", resolve));
  return { url, stop: () => new Promise((resolve) => { child.once("exit", resolve); child.send("close"); }) };
}

async function startPrism() {
  const port = await freePort();
  const child = spawn(prismBin, ["mock", spec, "-h", "127.0.0.1", "-p", String(port)], { stdio: ["ignore", "pipe", "pipe"] });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("prism did not start in 60 s")), 60_000);
    const onData = (chunk) => {
      if (/Prism is listening/.test(String(chunk))) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`prism exited with ${code}`)));
  });
  child.stdout.resume();
  child.stderr.resume();
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((resolve) => { child.once("exit", resolve); child.kill("SIGTERM"); }) };
}

async function fire(url, path, request, seconds = SECONDS) {
  const result = await autocannon({ url: `${url}${path}`, connections: CONNECTIONS, duration: seconds, ...request });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  };
}

async function setupCustomer(url) {
  const body = { client_reference_id: "bench-customer", full_name: "Bench Customer", alpha_3_country_code: "IND" };
  const { method, headers, body: raw } = signed("POST", body);
  const res = await fetch(`${url}/cms/api/v1/customer/create`, { method, headers, body: raw });
  const json = await res.json();
  if (!json.status) throw new Error(`setup failed: ${JSON.stringify(json)}`);
  return { id: json.data.id, body };
}

const rows = [];
async function measure(name, url, customerId, createBody) {
  const cases = [
    ["GET  /cms/api/v1/customer/{id}", `/cms/api/v1/customer/${customerId}`, signed("GET")],
    ["POST /cms/api/v1/customer/create", "/cms/api/v1/customer/create", signed("POST", createBody)],
  ];
  for (const [label, path, request] of cases) {
    await fire(url, path, request, 2); // warm-up
    const r = await fire(url, path, request);
    rows.push({ server: name, operation: label, ...r });
    console.error(`${name.padEnd(15)} ${label}: ${Math.round(r.rps)} req/s, p99 ${r.p99} ms`);
  }
}

const baseline = await startChild("./baseline.mjs");
try {
  await measure("node:http floor", baseline.url, "3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f", {});
} finally {
  await baseline.stop();
}
const sandbox = await startChild("./serve.mjs");
try {
  const { id, body } = await setupCustomer(sandbox.url);
  await measure("sandbox", sandbox.url, id, body);
} finally {
  await sandbox.stop();
}
const prism = await startPrism();
try {
  await measure("prism", prism.url, "3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f", { client_reference_id: "bench-customer", full_name: "Bench Customer", alpha_3_country_code: "IND" });
} finally {
  await prism.stop();
}

console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per case, loopback, signed requests\n`);
console.log("| server | operation | req/s | p50 ms | p99 ms | non-2xx | errors |");
console.log("| - | - | -: | -: | -: | -: | -: |");
for (const r of rows) console.log(`| ${r.server} | ${r.operation} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} |`);
console.log("\n| operation | sandbox / prism | sandbox p99 | node:http floor p99 |");
console.log("| - | -: | -: | -: |");
let throughputMet = true;
let latencyMet = true;
for (const r of rows.filter((x) => x.server === "sandbox")) {
  const prism = rows.find((x) => x.server === "prism" && x.operation === r.operation);
  const floor = rows.find((x) => x.server === "node:http floor" && x.operation === r.operation);
  const ratio = r.rps / prism.rps;
  console.log(`| ${r.operation} | ${ratio.toFixed(1)}x | ${r.p99} ms | ${floor.p99} ms |`);
  if (ratio < 5 || r.non2xx > 0 || r.errors > 0) throughputMet = false;
  if (r.p99 >= 10) latencyMet = false;
}
console.log(`\nThroughput target (at least 5x Prism, every answer 2xx): ${throughputMet ? "met" : "MISSED"}.`);
console.log(
  `Latency target (p99 under 10 ms at ${CONNECTIONS} connections): ${latencyMet ? "met" : "missed"}` +
    (latencyMet ? "." : "; compare with the node:http floor above: load generator and server share this machine's cores."),
);
// Only the throughput target fails the run: p99 depends on the machine as much as on the server (see the floor).
process.exitCode = throughputMet ? 0 : 1;
