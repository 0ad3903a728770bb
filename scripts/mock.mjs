#!/usr/bin/env node
// Serves the spec with the Prism mock (the root devDependency @stoplight/prism-cli) on the loopback interface.
//
//   node scripts/mock.mjs [--port 4010] [--spec openapi/openapi.yaml]     (or MOCK_PORT=4010)
//
// Prism reads the split spec directly (it resolves the $refs between files), validates every request against
// it (a missing auth header: 401; a body, path or query that does not match: the operation's 400 example, with
// the violations in the `sl-violations` header), and serves the first example of the chosen response.
// `--errors` makes it answer 500 rather than serve a response example that violates its own schema.
// Prints "Mock server ready at http://127.0.0.1:<port>" once, when Prism listens. SIGINT/SIGTERM stop Prism too.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const HOST = "127.0.0.1";

const { values: args } = parseArgs({
  options: {
    port: { type: "string", short: "p" },
    spec: { type: "string", default: "openapi/openapi.yaml" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (args.help) {
  console.log("Usage: node scripts/mock.mjs [--port 4010] [--spec openapi/openapi.yaml]   (or MOCK_PORT=4010)");
  process.exit(0);
}

const rawPort = args.port ?? process.env.MOCK_PORT ?? "4010";
const port = Number(rawPort);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`Invalid port: ${rawPort}`);
  process.exit(2);
}
const spec = resolve(root, args.spec);
const prismBin = join(root, "node_modules", ".bin", process.platform === "win32" ? "prism.cmd" : "prism");
if (!existsSync(prismBin)) {
  console.error(`Prism not found at ${prismBin}: run pnpm install at the repository root.`);
  process.exit(1);
}

const url = `http://${HOST}:${port}`;
const prism = spawn(prismBin, ["mock", spec, "--host", HOST, "--port", String(port), "--errors"], {
  cwd: root,
  stdio: ["ignore", "pipe", "pipe"],
});

let ready = false;
function relay(stream, write) {
  createInterface({ input: stream }).on("line", (line) => {
    write(`${line}\n`);
    if (!ready && /Prism is listening on/.test(line)) {
      ready = true;
      console.log(`Mock server ready at ${url}`);
    }
  });
}
relay(prism.stdout, (s) => process.stdout.write(s));
relay(prism.stderr, (s) => process.stderr.write(s));
// A reader that went away (e.g. the parent closed our stdout) must not crash the mock with EPIPE.
process.stdout.on("error", () => {});
process.stderr.on("error", () => {});

prism.on("error", (error) => {
  console.error(`Could not start Prism: ${error.message}`);
  process.exit(1);
});
prism.on("exit", (code, signal) => {
  if (!stopping) console.error(`Prism exited (${signal ?? `code ${code}`})${ready ? "" : " before it was ready"}.`);
  process.exit(stopping ? 0 : (code ?? 1));
});

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  prism.kill("SIGTERM");
  // Prism stops at once on SIGTERM; do not hang if it does not.
  setTimeout(() => {
    prism.kill("SIGKILL");
    process.exit(0);
  }, 3000).unref();
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, stop);
