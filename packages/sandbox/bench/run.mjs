// Pages, unique-reference creates, restart time and RSS of the sandbox at several row counts, in memory and on a
// --db file, beside Prism (serving the same bundled spec) and a bare node:http floor measured in the same run.
// Each server runs in its own process; rows are seeded through the store (bench/seed.mjs), not over HTTP.
// Usage: pnpm bench   env: BENCH_ROWS=1000,10000,100000  BENCH_MODES=memory,file  BENCH_SECONDS=5
//                         BENCH_CONNECTIONS=200  BENCH_PEERS=1 (0 skips Prism and the floor)
import { specFiles } from "@exchange-kit/openapi";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CREATE, fire as fireAt, freePort, HISTORY, LIST, signed, startChild, uniqueCreate } from "./harness.mjs";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200);
const ROWS = (process.env.BENCH_ROWS ?? "1000,10000,100000").split(",").map(Number);
const MODES = (process.env.BENCH_MODES ?? "memory,file").split(",");
const PEERS = process.env.BENCH_PEERS !== "0";
const spec = specFiles.json;
const prismBin = fileURLToPath(new URL("../../../node_modules/.bin/prism", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "sandbox-bench-"));

async function startPrism() {
  const port = await freePort();
  const child = spawn(prismBin, ["mock", spec, "-h", "127.0.0.1", "-p", String(port)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
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
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGTERM");
      }),
  };
}

function fire(url, path, request, { seconds = SECONDS, connections = CONNECTIONS } = {}) {
  return fireAt(url, path, request, { seconds, connections });
}

const rows = [];
function record(server, mode, count, operation, connections, r) {
  rows.push({ server, mode, rows: count, operation, connections, ...r });
  console.error(
    `${server} ${mode} ${count} ${operation} c=${connections}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms, non-2xx ${r.non2xx}`,
  );
}

const DEEP = (count) => `/cms/api/v1/customer/list?page=${Math.max(1, Math.floor(count / 20))}&per_page=20`;

async function measureSandbox(mode, count) {
  const file = mode === "file" ? join(dir, `bench-${count}.db`) : undefined;
  const server = await startChild("./serve.mjs", { BENCH_ROWS: String(count), ...(file ? { BENCH_DB: file } : {}) });
  const facts = { mode, rows: count };
  try {
    for (const [operation, path] of [
      ["list page 1", LIST],
      ["history page 1", HISTORY],
      ["list last page", DEEP(count)],
    ]) {
      await fire(server.url, path, signed("GET"), { seconds: 1, connections: 1 });
      record("sandbox", mode, count, operation, 1, await fire(server.url, path, signed("GET"), { connections: 1 }));
      record("sandbox", mode, count, operation, CONNECTIONS, await fire(server.url, path, signed("GET")));
    }
    record(
      "sandbox",
      mode,
      count,
      "unique-reference create",
      CONNECTIONS,
      await fire(server.url, CREATE, uniqueCreate()),
    );
    facts.rssMb = (await server.rss()) / 2 ** 20;
  } finally {
    await server.stop();
  }
  if (file) {
    // Restart on the same file: the time createSandbox takes, and the RSS after the first pages.
    const again = await startChild("./serve.mjs", { BENCH_DB: file });
    await fire(again.url, LIST, signed("GET"), { seconds: 1, connections: 1 });
    facts.restartMs = again.startMs;
    facts.openMs = again.openMs;
    facts.restartRssMb = (await again.rss()) / 2 ** 20;
    await again.stop();
    rmSync(file, { force: true });
    rmSync(`${file}-wal`, { force: true });
  }
  return facts;
}

const facts = [];
try {
  if (PEERS) {
    const floor = await startChild("./baseline.mjs");
    try {
      record("node:http floor", "-", 0, "list page 1", CONNECTIONS, await fire(floor.url, LIST, signed("GET")));
    } finally {
      await floor.stop();
    }
    const prism = await startPrism();
    try {
      await fire(prism.url, LIST, signed("GET"), { seconds: 1 });
      record("prism", "-", 0, "list page 1", CONNECTIONS, await fire(prism.url, LIST, signed("GET")));
    } finally {
      await prism.stop();
    }
  }
  for (const mode of MODES) for (const count of ROWS) facts.push(await measureSandbox(mode, count));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `\n${CONNECTIONS} connections (and 1 for single-client latency), ${SECONDS} s per case, loopback, signed requests\n`,
);
console.log("| server | storage | rows | operation | connections | req/s | p50 ms | p99 ms | max ms | non-2xx |");
console.log("| - | - | -: | - | -: | -: | -: | -: | -: | -: |");
for (const r of rows) {
  console.log(
    `| ${r.server} | ${r.mode} | ${r.rows} | ${r.operation} | ${r.connections} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.max} | ${r.non2xx} |`,
  );
}
console.log(
  "\n| storage | rows | RSS after the run MB | restart: open the file ms | restart: createSandbox ms | RSS after restart MB |",
);
console.log("| - | -: | -: | -: | -: | -: |");
for (const f of facts) {
  console.log(
    `| ${f.mode} | ${f.rows} | ${f.rssMb.toFixed(0)} | ${f.openMs === undefined ? "-" : f.openMs.toFixed(1)} | ${f.restartMs === undefined ? "-" : f.restartMs.toFixed(0)} | ${f.restartRssMb === undefined ? "-" : f.restartRssMb.toFixed(0)} |`,
  );
}
const prism = rows.find((r) => r.server === "prism");
if (prism) {
  console.log("\n| storage | rows | list page req/s | / Prism | / node:http floor |");
  console.log("| - | -: | -: | -: | -: |");
  const floor = rows.find((r) => r.server === "node:http floor");
  for (const r of rows.filter(
    (x) => x.server === "sandbox" && x.operation === "list page 1" && x.connections === CONNECTIONS,
  )) {
    console.log(
      `| ${r.mode} | ${r.rows} | ${Math.round(r.rps)} | ${(r.rps / prism.rps).toFixed(1)}x | ${(r.rps / floor.rps).toFixed(2)} |`,
    );
  }
}
const failed = rows.filter((r) => r.server === "sandbox" && (r.non2xx > 0 || r.errors > 0));
if (failed.length > 0) {
  console.log(`\n${failed.length} case(s) had non-2xx answers or errors.`);
  process.exitCode = 1;
}
