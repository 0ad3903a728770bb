#!/usr/bin/env node
// The release check: the packages as users receive them. From a copy of the working tree it versions every
// package with a throwaway changeset, publishes them with the real release command (`pnpm release`) to a local
// Verdaccio, installs each of client, webhook-verify, cli and mcp alone into a fresh app outside the workspace
// (printing its package count and size against its budget), and runs a smoke integration from the installed
// packages: the cli's sandbox, a client flow, a webhook receiver with deduplication, the cli's MCP server started
// from a JSON MCP configuration, the cli's demo; then
// runs a runtime matrix (Node 20, 22, 24, Bun, Deno) from those tarballs, type-checks every README's
// TypeScript blocks against the installed packages (scripts/release-check/readmes.mjs), runs the README examples
// marked to run twice each against the installed sandbox (readme-runs.mjs), and runs the installed cli under
// Node 20 (cli-node20.mjs).
//
//   node scripts/release-check.mjs [--ports 45000-45999] [--keep]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { budgetVerdict, installSize, megabytes } from "./release-check/install-size.mjs";
import { run, startJsonLines } from "./release-check/processes.mjs";
import { startRegistry } from "./release-check/registry.mjs";
import { checkCliOnNode20 } from "./release-check/cli-node20.mjs";
import { runReadmeExamples } from "./release-check/readme-runs.mjs";
import { checkReadmes } from "./release-check/readmes.mjs";
import { runMatrix } from "./release-check/runtimes.mjs";
import { copyWorkspace, publishablePackages } from "./release-check/workspace.mjs";

const root = resolve(fileURLToPath(import.meta.url), "../..");
const here = join(root, "scripts", "release-check");
const { values: flags } = parseArgs({
  options: { ports: { type: "string", default: "45000-45999" }, keep: { type: "boolean" } },
});
const ports = flags.ports.split("-").map(Number);

/** What each package may cost a user who installs it alone (node_modules, decimal MB). */
const INSTALLS = [
  { name: "@exchange-kit/client", app: "client", budget: 1.5e6 },
  // 1.0 MB until the durable inbox (Redis Streams) and the typed router came in: 1.01 MB measured with them.
  { name: "@exchange-kit/webhook-verify", app: "webhook-verify", budget: 1.1e6 },
  // 15 MB until the sandbox's own reference page came in (issue 37): 15.24 MB measured with it. Each reference
  // page inlines Redoc (2.9 MB each, so offline readers need nothing else); sharing one copy of Redoc between the
  // two pages would give most of it back.
  { name: "@exchange-kit/cli", app: "cli", budget: 15.5e6 },
  // The MCP SDK is most of it (with its HTTP server stack and zod, which it requires).
  // 20.10 MB measured from packed tarballs (105 packages): zod 4 is ~8 MB of it, the SDK with hono, ajv and its
  // HTTP stack most of the rest; the server itself (tools, schemas and docs generated from the spec) ~0.5 MB.
  { name: "@exchange-kit/mcp", app: "mcp", budget: 21e6 },
];
// Apps whose package needs zod: the cli (through the sandbox) and the MCP server (the MCP SDK's peer).
const ZOD_EXPECTED = new Set(["cli", "mcp"]);

const work = mkdtempSync(join(tmpdir(), "exchange-kit-release-"));
const logFile = join(work, "release-check.log");
const log = (text) => appendFileSync(logFile, text);
const started = Date.now();
const step = (title) => console.log(`\n--- ${title} (+${Math.round((Date.now() - started) / 1000)}s)`);
const cleanup = [];
let failures = 0;
const fail = (message) => {
  failures++;
  console.error(`FAIL ${message}`);
};

// The servers started here (Verdaccio, the installed cli's sandbox, the receiver) stop with the check: on its
// end, on Ctrl-C or SIGTERM, and at the latest after 20 minutes.
const stopAll = async (code) => {
  for (const stop of cleanup.splice(0).reverse()) await stop().catch(() => {});
  process.exit(code);
};
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => void stopAll(130));
setTimeout(() => {
  console.error("FAIL the release check ran past 20 minutes");
  void stopAll(1);
}, 20 * 60_000).unref();

try {
  step("copy the working tree and install it from the lockfile");
  const repo = join(work, "repo");
  copyWorkspace(root, repo);
  run("pnpm", ["install", "--frozen-lockfile", "--prefer-offline", "--reporter=append-only"], { cwd: repo, log });

  step("start Verdaccio on 127.0.0.1");
  const registry = await startRegistry({
    verdaccio: join(root, "node_modules", "verdaccio", "bin", "verdaccio"),
    dir: join(work, "registry"),
    config: join(here, "verdaccio.yaml"),
    ports,
    log,
  });
  cleanup.push(() => registry.stop());
  console.log(`registry at ${registry.url}`);

  step("version every package with a throwaway changeset (pnpm version-packages), as the release PR does");
  // Every published package, the spec package at openapi/ included (the cli and types depend on it).
  const packages = publishablePackages(repo);
  writeFileSync(
    join(repo, ".changeset", "release-check.md"),
    `---\n${packages.map((p) => `"${p.name}": patch`).join("\n")}\n---\n\nRelease check (never published outside the check).\n`,
  );
  run("pnpm", ["version-packages"], { cwd: repo, log });
  const git = (...args) =>
    run("git", ["-c", "user.name=release-check", "-c", "user.email=release-check@localhost", ...args], {
      cwd: repo,
      log,
    });
  git("add", "-A");
  git("commit", "-qm", "Version Packages");
  const versions = Object.fromEntries(
    packages.map((p) => [p.name, JSON.parse(readFileSync(join(p.dir, "package.json"), "utf8")).version]),
  );
  console.log(
    Object.entries(versions)
      .map(([n, v]) => `${n}@${v}`)
      .join("\n"),
  );

  step("publish with the real release command (pnpm release: build, then changeset publish)");
  // npm and pnpm refuse to publish without a token line for the registry, even where the registry takes
  // anonymous publishes: the release's npmrc always carries one (in CI, NODE_AUTH_TOKEN from the secret).
  const host = registry.url.replace(/^https?:/, "");
  const npmrc = join(work, "release.npmrc");
  writeFileSync(npmrc, `registry=${registry.url}\n${host}:_authToken=\${NODE_AUTH_TOKEN}\n`);
  const releaseEnv = {
    ...process.env,
    NPM_CONFIG_USERCONFIG: npmrc,
    npm_config_registry: registry.url,
    NODE_AUTH_TOKEN: "release-check-anonymous",
  };
  run("pnpm", ["release"], { cwd: repo, env: releaseEnv, log });
  for (const [name, version] of Object.entries(versions)) {
    const doc = await (await fetch(`${registry.url}${name.replace("/", "%2f")}`)).json();
    if (!doc.versions?.[version]) fail(`${name}@${version} is not in the registry after the release`);
    else console.log(`published ${name}@${version}`);
  }

  step("install each package alone in a fresh app outside the workspace");
  const apps = join(work, "apps");
  for (const install of INSTALLS) {
    const dir = join(apps, install.app);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "package.json"),
      `${JSON.stringify({ name: `app-${install.app}`, private: true, type: "module" }, null, 2)}\n`,
    );
    writeFileSync(join(dir, ".npmrc"), `@exchange-kit:registry=${registry.url}\n`);
    run(
      "npm",
      ["install", "--no-audit", "--no-fund", "--loglevel=error", `${install.name}@${versions[install.name]}`],
      { cwd: dir, log },
    );
    const size = installSize(join(dir, "node_modules"));
    const verdict = budgetVerdict(install, size);
    const shown = verdict === "within" ? "within" : "OVER";
    console.log(
      `${install.name}: ${size.packages.length} packages, ${megabytes(size.bytes)} (budget ${megabytes(install.budget)}: ${shown})`,
    );
    console.log(`  ${size.packages.sort().join(", ")}`);
    if (verdict === "over")
      fail(`${install.name} installs ${megabytes(size.bytes)}, over its ${megabytes(install.budget)} budget`);
    if (!ZOD_EXPECTED.has(install.app) && size.packages.includes("zod")) fail(`${install.name} installs zod`);
  }

  step("smoke: the cli's sandbox, a client flow, a webhook receiver with deduplication");
  const bin = (app, name) => join(apps, app, "node_modules", ".bin", name);
  const version = run(bin("cli", "exchange-kit"), ["--version"], { cwd: join(apps, "cli"), log }).trim();
  if (version !== versions["@exchange-kit/cli"]) fail(`exchange-kit --version printed "${version}"`);
  const credentials = { EXCHANGE_API_KEY: "release-check-key", EXCHANGE_API_SECRET: "release-check-secret-0123456789" };
  const env = { ...process.env, ...credentials };
  const sandbox = startJsonLines(
    bin("cli", "exchange-kit"),
    ["sandbox", "--port", "0", "--duplicate-deliveries", "--auto-progress", "100", "--json"],
    { cwd: join(apps, "cli"), env, log },
  );
  cleanup.push(() => sandbox.stop());
  const { url } = await sandbox.next((l) => l.ready === true, "sandbox ready line");
  console.log(`sandbox (installed cli) at ${url}`);
  copyFileSync(join(here, "receiver.mjs"), join(apps, "webhook-verify", "receiver.mjs"));
  const receiver = startJsonLines(process.execPath, ["receiver.mjs"], { cwd: join(apps, "webhook-verify"), env, log });
  cleanup.push(() => receiver.stop());
  const { listening } = await receiver.next((l) => typeof l.listening === "string", "receiver listening line");
  copyFileSync(join(here, "client-flow.mjs"), join(apps, "client", "client-flow.mjs"));
  const flowOut = run(process.execPath, ["client-flow.mjs"], {
    cwd: join(apps, "client"),
    env: { ...env, EXCHANGE_BASE_URL: url, WEBHOOK_URL: listening },
    log,
  });
  const flow = JSON.parse(flowOut.trim().split("\n").at(-1));
  console.log(`client: customer ${flow.customer}, KYC ${flow.kyc}, unknown customer -> ${flow.unknownCustomer}`);
  const key = `CUSTOMER VERIFIED ${flow.customer}`;
  await receiver.next((l) => l.handled === key, `the receiver handling ${key}`);
  // The sandbox delivers every event twice: the receiver must answer both 200 and handle each event once.
  await receiver.next(
    (_, all) => all.filter((l) => l.request === 200).length >= 2 * all.filter((l) => l.handled).length,
    "both deliveries answered",
  );
  const handled = receiver.lines.filter((l) => l.handled).map((l) => l.handled);
  if (new Set(handled).size !== handled.length) fail(`an event reached the handler twice: ${handled.join(", ")}`);
  else
    console.log(
      `receiver: ${receiver.lines.filter((l) => l.request === 200).length} deliveries answered 200, ${handled.length} handled once each (${handled.join(", ")})`,
    );

  step(
    "smoke: exchange-kit mcp (the cli beside its optional peer @exchange-kit/mcp), started from a JSON MCP configuration as editors start it",
  );
  run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--loglevel=error", `@exchange-kit/cli@${versions["@exchange-kit/cli"]}`],
    {
      cwd: join(apps, "mcp"),
      log,
    },
  );
  const mcpConfig = join(apps, "mcp", "mcp.json");
  const mcpServer = {
    command: bin("mcp", "exchange-kit"),
    args: ["mcp"],
    env: { ...credentials, EXCHANGE_BASE_URL: url },
  };
  writeFileSync(mcpConfig, `${JSON.stringify({ mcpServers: { exchange: mcpServer } }, null, 2)}\n`);
  copyFileSync(join(here, "mcp-config.mjs"), join(apps, "mcp", "mcp-config.mjs"));
  console.log(`mcp: ${run(process.execPath, ["mcp-config.mjs", mcpConfig], { cwd: join(apps, "mcp"), log }).trim()}`);

  step("runtime matrix from the published tarballs: Node 20, 22, 24, Bun, Deno (and require() on each Node)");
  const matrix = join(apps, "matrix");
  mkdirSync(matrix, { recursive: true });
  writeFileSync(
    join(matrix, "package.json"),
    `${JSON.stringify({ name: "app-matrix", private: true, type: "module" }, null, 2)}\n`,
  );
  writeFileSync(join(matrix, ".npmrc"), `@exchange-kit:registry=${registry.url}\n`);
  const matrixPackages = [
    "@exchange-kit/signing",
    "@exchange-kit/client",
    "@exchange-kit/webhook-verify",
    "@exchange-kit/types",
  ];
  run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--loglevel=error", ...matrixPackages.map((n) => `${n}@${versions[n]}`)],
    { cwd: matrix, log },
  );
  for (const file of ["matrix.mjs", "require-esm.cjs"]) copyFileSync(join(here, file), join(matrix, file));
  failures += await runMatrix({ cwd: matrix, env: { ...env, EXCHANGE_BASE_URL: url }, log });

  step("smoke: webhook-verify's optional ./zod entry once the app installs zod itself");
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", "zod@^4"], {
    cwd: join(apps, "webhook-verify"),
    log,
  });
  copyFileSync(join(here, "zod-entry.mjs"), join(apps, "webhook-verify", "zod-entry.mjs"));
  console.log(run(process.execPath, ["zod-entry.mjs"], { cwd: join(apps, "webhook-verify"), log }).trim());

  step("smoke: exchange-kit demo from the installed cli");
  run(bin("cli", "exchange-kit"), ["demo"], { cwd: join(apps, "cli"), log });
  console.log("demo: every step behaved");

  step("READMEs: every ts block type-checked (strict) against the installed packages; install lines; links");
  failures += checkReadmes({
    root,
    dir: join(apps, "readmes"),
    registryUrl: registry.url,
    versions,
    tsc: join(root, "node_modules", "typescript", "bin", "tsc"),
    typesNode: JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies["@types/node"],
    log,
    run,
  });

  step("READMEs: every example marked to run, twice in a row, against the installed cli's sandbox");
  failures += runReadmeExamples({
    root,
    dir: join(apps, "readmes"),
    env: { ...env, EXCHANGE_BASE_URL: url, NO_COLOR: "1" },
    log,
    run,
  });

  step("the installed cli on Node 20: every command but sandbox and demo, which stop in one line");
  failures += await checkCliOnNode20({ cli: join(apps, "cli"), baseUrl: url, env, log });
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  for (const stop of cleanup.splice(0).reverse()) await stop().catch(() => {});
  if (flags.keep || failures) console.log(`\nwork directory kept: ${work} (log: ${logFile})`);
  else rmSync(work, { recursive: true, force: true });
}
console.log(failures ? `\nrelease check: ${failures} failure(s)` : "\nrelease check: ok");
process.exit(failures ? 1 : 0);
