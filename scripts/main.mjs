#!/usr/bin/env node
// The main job: build the reference docs, start the Prism mock, serve the docs, print both URLs.
//   node scripts/main.mjs [--mock-port 4010] [--docs-port 4000] [--check]
// --check starts everything, proves both URLs answer, and exits (CI runs this).
import { spawn, spawnSync } from "node:child_process";
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = resolve(fileURLToPath(import.meta.url), "../..");
const { values: args } = parseArgs({
  options: {
    "mock-port": { type: "string", default: process.env.MOCK_PORT ?? "4010" },
    "docs-port": { type: "string", default: process.env.DOCS_PORT ?? "4000" },
    check: { type: "boolean", default: false },
  },
});
const host = "127.0.0.1";
const mockUrl = `http://${host}:${args["mock-port"]}`;
const docsUrl = `http://${host}:${args["docs-port"]}/`;
const docsDir = join(root, "docs", "reference");

console.log("> building the reference docs");
const built = spawnSync(process.execPath, [join(root, "scripts", "build-docs.mjs")], { stdio: "inherit" });
if (built.status !== 0) process.exit(built.status ?? 1);

console.log("> starting the Prism mock");
const mock = spawn(process.execPath, [join(root, "scripts", "mock.mjs"), "--port", args["mock-port"]], {
  stdio: ["ignore", "pipe", "inherit"],
});
mock.stdout.on("data", (chunk) => process.stdout.write(`  [mock] ${chunk}`));
mock.on("exit", (code) => {
  console.error(`the mock exited (code ${code})`);
  process.exit(1);
});

const types = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css",
  ".js": "text/javascript",
  ".png": "image/png",
  ".json": "application/json",
};
const docs = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? "/", docsUrl).pathname);
  let file = normalize(join(docsDir, path));
  if (!file.startsWith(docsDir + sep) && file !== docsDir) return res.writeHead(403).end();
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
  if (!existsSync(file)) return res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
  res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
  createReadStream(file).pipe(res);
});
docs.on("error", (error) => {
  console.error(`cannot serve the docs on ${docsUrl}: ${error.message} (choose another port with --docs-port)`);
  shutdown(1);
});
docs.listen(Number(args["docs-port"]), host);

function shutdown(code) {
  mock.removeAllListeners("exit");
  mock.kill("SIGTERM");
  docs.close();
  process.exit(code);
}
process.on("SIGINT", () => shutdown(0));
process.on("SIGTERM", () => shutdown(0));

// Ready when the mock answers HTTP at all (Prism answers 401 to an unsigned probe: that is fine).
async function waitFor(url, deadline = Date.now() + 60_000) {
  for (;;) {
    try {
      return await fetch(url, { signal: AbortSignal.timeout(2_000) });
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer within 60 s`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
try {
  await waitFor(`${mockUrl}/cms/api/v1/customer/list`);
  const page = await waitFor(docsUrl);
  if (!page.ok) throw new Error(`the docs page answered ${page.status}`);
} catch (error) {
  console.error(error.message);
  shutdown(1);
}
console.log(`\nMock (Prism, validating requests): ${mockUrl}`);
console.log(`Reference docs:                   ${docsUrl}`);
if (args.check) {
  console.log("check passed: both answer");
  shutdown(0);
}
console.log("Press Ctrl-C to stop.");
