// What `redirect: "manual"` returns differs by runtime: the 3xx with its Location in Node, Bun and Deno, an opaque
// redirect (status 0, no headers) in browsers. The client bundled for Web runtimes (as web-runtime.test.ts builds
// it) is run in Bun and Deno (through `npx -y`, skipped with the reason when npx cannot fetch them here) and in
// headless Chromium (skipped when it is not installed), against real servers in this process: each call must
// reject with ExchangeRedirectError, and the server the redirects point to must receive nothing.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, it } from "vitest";
import { API_KEY, API_SECRET, CUSTOMER_ID } from "./support/fake-fetch.js";
import { startServer, type TestServer } from "./support/http-server.js";
import { packageRoot } from "./support/spec.js";

const STATUSES = [301, 302, 303, 307, 308];
const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find(existsSync);

let dir = "";
let bundle = "";
let capture: TestServer;
// Serves the page and the bundle, and redirects /s<status>/... to the capturing server with that status.
let site: TestServer;

/** The calls every runtime makes: one per status, each reporting how it ended. */
const probe = (baseUrl: string) => `
const results = [];
for (const status of ${JSON.stringify(STATUSES)}) {
  const client = createExchangeClient({
    baseUrl: "${baseUrl}/s" + status, apiKey: "${API_KEY}", apiSecret: "${API_SECRET}", maxRetries: 0,
    dangerouslyAllowBrowser: true,
  });
  try {
    await client.customers.get("${CUSTOMER_ID}");
    results.push({ status, outcome: "resolved" });
  } catch (e) {
    results.push({ status, outcome: e.name, errorStatus: e.status, locationOrigin: e.locationOrigin ?? null });
  }
}
const runtime = globalThis.Deno ? "deno " + Deno.version.deno : globalThis.Bun ? "bun " + Bun.version : navigator.userAgent;
`;

beforeAll(async () => {
  const result = await build({
    entryPoints: [join(packageRoot, "src", "index.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["@exchange-kit/source"],
    write: false,
    logLevel: "silent",
  });
  bundle = result.outputFiles[0]!.text;
  dir = mkdtempSync(join(tmpdir(), "exchange-client-redirects-"));
  writeFileSync(join(dir, "client.mjs"), bundle);
  capture = await startServer((_, response) => response.writeHead(200).end('{"status":true,"data":{}}'));
  site = await startServer((request, response) => {
    const redirect = /^\/s(\d{3})\//.exec(request.url);
    if (redirect !== null) return response.writeHead(Number(redirect[1]), { location: `${capture.url}/x?t=1` }).end();
    if (request.url === "/client.mjs")
      return response.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
    const page = `<!doctype html><pre id="result">pending</pre><script type="module">
import { createExchangeClient } from "/client.mjs";
${probe(site.url)}
document.getElementById("result").textContent = JSON.stringify({ runtime, results });
</script>`;
    response.writeHead(200, { "content-type": "text/html" }).end(page);
  });
  writeFileSync(
    join(dir, "probe.mjs"),
    `import { createExchangeClient } from "./client.mjs";\n${probe(site.url)}\nconsole.log(JSON.stringify({ runtime, results }));\n`,
  );
});

afterAll(async () => {
  await capture?.close();
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs a command in its own process group to its end, or kills the group (SIGKILL) past `budgetMs`. */
function run(command: string[], budgetMs: number): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd: dir,
      detached: true,
      env: { ...process.env, NO_COLOR: "1" },
    });
    let output = "";
    const timer = setTimeout(() => {
      output += `\n(killed after ${budgetMs / 1000} s)`;
      process.kill(-child.pid!, "SIGKILL");
    }, budgetMs);
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", (e) => resolve(String(e)));
    child.on("close", () => {
      clearTimeout(timer);
      resolve(output);
    });
  });
}

interface Report {
  runtime: string;
  results: { status: number; outcome: string; errorStatus?: number; locationOrigin: string | null }[];
}

/** The report in `output`: a JSON line from Bun and Deno, the page's <pre> from Chromium's dumped DOM. */
function reportIn(output: string): Report | undefined {
  const text = /\{"runtime".*\}/.exec(output.replaceAll("&quot;", '"').replaceAll("&amp;", "&"))?.[0];
  return text === undefined ? undefined : (JSON.parse(text) as Report);
}

const runtimes = [
  { name: "Bun", command: () => ["npx", "-y", "bun@1", "probe.mjs"], opaque: false },
  {
    name: "Deno",
    command: () => ["npx", "-y", "deno@2", "run", "--allow-net=127.0.0.1", "--allow-read", "probe.mjs"],
    opaque: false,
  },
  {
    name: "Chromium",
    // --virtual-time-budget lets the page's fetches finish before the DOM is dumped.
    command: () => [
      CHROMIUM ?? "chromium",
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--virtual-time-budget=20000",
      "--dump-dom",
      `${site.url}/`,
    ],
    opaque: true,
  },
];

// The three run at once (each in its own process); the capturing server is shared, so each checks it is still empty.
describe.concurrent("redirects in other runtimes", () => {
  it.for(runtimes)(
    "$name rejects every redirect with ExchangeRedirectError and sends nothing where it points",
    {
      timeout: 260_000,
    },
    async ({ name, command, opaque }, ctx) => {
      const output = await run(command(), 240_000);
      const report = reportIn(output);
      if (report === undefined) {
        console.warn(`Skipped: ${name} could not be run here:\n${output.slice(-500)}`);
        ctx.skip();
      }
      ctx.expect(report!.results).toEqual(
        STATUSES.map((status) => ({
          status,
          outcome: "ExchangeRedirectError",
          // A browser shows neither the status nor the Location of an opaque redirect.
          errorStatus: opaque ? 0 : status,
          locationOrigin: opaque ? null : capture.url,
        })),
      );
      ctx.expect(capture.arrived).toHaveLength(0);
    },
  );
});
