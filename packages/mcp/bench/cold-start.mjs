// Cold start of `exchange-kit mcp` to a listed tool set: from spawning the server (as an editor does, over stdio)
// to the answer of tools/list, through the SDK's Client. Beside it, in the same run and against the same sandbox:
//   floor  the SDK's Server with no tools (bench/floor-server.mjs): Node, the SDK and the handshake;
//   peer   @ivotoby/openapi-mcp-server 1.16.1, a generic OpenAPI-to-MCP server (the most used one on npm that
//          serves a spec at run time, a tool per operation), started on the same bundled spec.
// Each sample is a new process; the median and the range of the samples are printed, wall time and the server
// process's CPU time (far less disturbed by other load on the machine), with the tool count and the size of the
// tools/list answer (what a model reads before its first call).
//
//   node bench/cold-start.mjs [samples=11]          (after `pnpm build`: it runs the built cli)
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { specFiles } from "@exchange-kit/openapi";
import { createSandbox } from "@exchange-kit/sandbox";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const samples = Number(process.argv[2] ?? 11);
const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const credentials = { apiKey: "bench_key", apiSecret: "bench-secret-0123456789" };
const sandbox = await createSandbox({ organizations: [{ name: "bench", ...credentials }], autoProgressMs: false });
const env = {
  PATH: process.env.PATH ?? "",
  EXCHANGE_BASE_URL: sandbox.url,
  EXCHANGE_API_KEY: credentials.apiKey,
  EXCHANGE_API_SECRET: credentials.apiSecret,
};
const peerBin = here("../node_modules/@ivotoby/openapi-mcp-server/bin/mcp-server.js");
const servers = {
  "floor (SDK Server, no tools)": [here("./floor-server.mjs")],
  "exchange-kit mcp": [here("../../cli/dist/bin.js"), "mcp"],
  "exchange-kit mcp --allow-writes --allow-orders": [
    here("../../cli/dist/bin.js"),
    "mcp",
    "--allow-writes",
    "--allow-orders",
  ],
  "peer: @ivotoby/openapi-mcp-server": [peerBin, "--api-base-url", sandbox.url, "--openapi-spec", specFiles.json],
};

/** CPU time (user + system, ms) a live process has used so far, from /proc (Linux; clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function once(args) {
  const started = performance.now();
  const client = new Client({ name: "bench", version: "0.0.0" });
  const transport = new StdioClientTransport({ command: process.execPath, args, env, stderr: "ignore" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const ms = performance.now() - started;
  const cpu = cpuMs(transport.pid);
  await client.close();
  return { ms, cpu, tools: tools.length, bytes: Buffer.byteLength(JSON.stringify(tools)) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`cold start to tools/list over stdio, ${samples} samples each (node ${process.version})`);
try {
  for (const args of Object.values(servers)) await once(args); // warm the file system cache once for each
  const rows = Object.fromEntries(Object.keys(servers).map((name) => [name, []]));
  // Interleaved, so that a burst of load on the machine falls on every server alike.
  for (let i = 0; i < samples; i++)
    for (const [name, args] of Object.entries(servers)) rows[name].push(await once(args));
  for (const [name, runs] of Object.entries(rows)) {
    const times = runs.map((r) => r.ms);
    const cpus = runs.map((r) => r.cpu);
    console.log(
      `${name.padEnd(48)} wall median ${median(times).toFixed(0).padStart(4)} ms (${Math.min(...times).toFixed(0)}–${Math.max(...times).toFixed(0)}), ` +
        `CPU median ${median(cpus)} ms (${Math.min(...cpus)}–${Math.max(...cpus)}), ` +
        `${runs[0].tools} tools, tools/list ${(runs[0].bytes / 1024).toFixed(0)} KiB`,
    );
  }
} finally {
  await sandbox.close();
}
