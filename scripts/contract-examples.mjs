#!/usr/bin/env node
// The contract-testing guide's examples (examples/contract-testing/) run the way a user runs them: in a fresh app
// outside the workspace, with the packages installed by npm, against `npx exchange-kit mock` and
// `npx exchange-kit sandbox`.
//
//   node scripts/contract-examples.mjs [--keep]
//
// EXCHANGE_KIT_INSTALL_FROM is the one install source: "pack" (default: `pnpm pack` every publishable workspace
// package into the temp dir and install the tarballs) or a registry URL (e.g. a Verdaccio the release check
// published to: the same versions are installed from it).
//
// Checks, in order: without Prism, `npx exchange-kit mock` exits 1 naming the exact install; the shape tests pass
// against the mock; the sandbox-only tests FAIL against the mock (signature and state are not the mock's job);
// the shape tests and the sandbox-only tests pass against the sandbox.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { publishablePackages } from "./release-check/workspace.mjs";

const root = resolve(fileURLToPath(import.meta.url), "../..");
const example = join(root, "examples", "contract-testing");
const { values: args } = parseArgs({ options: { keep: { type: "boolean", default: false } } });
const source = process.env.EXCHANGE_KIT_INSTALL_FROM || "pack";
const work = mkdtempSync(join(tmpdir(), "exchange-kit-contract-"));
const app = join(work, "app");
const children = new Set();
let failed = false;

const log = (text) => console.log(`contract-examples: ${text}`);
const quiet = { REDOCLY_TELEMETRY: "off", NO_COLOR: "1", FORCE_COLOR: "0", npm_config_update_notifier: "false" };

/** Runs a command to completion; returns { status, stdout, stderr }. */
function exec(cmd, cmdArgs, options = {}) {
  const run = spawnSync(cmd, cmdArgs, {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: 600_000,
    ...options,
    env: { ...process.env, ...quiet, ...options.env },
  });
  if (run.error) throw run.error;
  return run;
}

function must(what, run) {
  if (run.status !== 0)
    throw new Error(`${what} exited with ${run.status ?? run.signal}:\n${run.stdout}\n${run.stderr}`);
  return run;
}

/** The dependency spec of every @exchange-kit package for the app, from the one install source. */
function installSpecs() {
  const specs = {};
  if (source === "pack") {
    const tarballs = join(work, "tarballs");
    for (const pkg of publishablePackages(root)) {
      const dest = join(tarballs, pkg.name.replace(/[@/]/g, "_"));
      must(`pnpm pack ${pkg.name}`, exec("pnpm", ["pack", "--pack-destination", dest], { cwd: pkg.dir }));
      specs[pkg.name] = `file:${join(
        dest,
        readdirSync(dest).find((f) => f.endsWith(".tgz")),
      )}`;
    }
  } else {
    for (const pkg of publishablePackages(root)) specs[pkg.name] = pkg.version;
  }
  return specs;
}

function npm(npmArgs) {
  const registry = source === "pack" ? [] : ["--registry", source];
  return must(
    `npm ${npmArgs.join(" ")}`,
    exec("npm", [...npmArgs, "--no-audit", "--no-fund", ...registry], { cwd: app }),
  );
}

/** Starts `npx exchange-kit <args> --json` in the app and resolves with its ready line, parsed. */
function startServer(cliArgs) {
  const child = spawn("npx", ["--no-install", "exchange-kit", ...cliArgs, "--port", "0", "--json"], {
    cwd: app,
    detached: true, // its own process group: stopping it stops npx, the cli and Prism together
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...quiet },
  });
  children.add(child);
  let output = "";
  return new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cliArgs[0]} not ready within 90 s:\n${output}`)), 90_000);
    child.stderr.on("data", (chunk) => (output += chunk));
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const line = output.split("\n").find((l) => l.includes('"ready":true'));
      if (line) {
        clearTimeout(timer);
        resolveReady({ child, ready: JSON.parse(line) });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${cliArgs[0]} exited with ${code} before it was ready:\n${output}`));
    });
  });
}

async function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once("exit", done));
  process.kill(-child.pid, "SIGTERM");
  const force = setTimeout(() => process.kill(-child.pid, "SIGKILL"), 5000);
  await exited;
  clearTimeout(force);
  children.delete(child);
}

/** Runs one example test file against a server; returns vitest's JSON report. */
function vitest(file, env) {
  const report = join(work, `report-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  const run = exec("npx", ["--no-install", "vitest", "run", file, "--reporter=json", `--outputFile=${report}`], {
    cwd: app,
    env: { ...env, CI: "true" },
  });
  let parsed;
  try {
    parsed = JSON.parse(readFileSync(report, "utf8"));
  } catch {
    throw new Error(`vitest ${file} wrote no report (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  }
  const results = parsed.testResults.flatMap((f) =>
    f.assertionResults.map((a) => ({ title: a.title, status: a.status, failure: a.failureMessages.join("\n") })),
  );
  return { status: run.status, results };
}

function expectAllPassed(what, { status, results }) {
  const bad = results.filter((r) => r.status !== "passed");
  if (status !== 0 || bad.length > 0 || results.length === 0) {
    throw new Error(
      `${what}: ${bad.length} of ${results.length} failed (exit ${status}):\n${bad.map((r) => `  ${r.title}\n${r.failure}`).join("\n")}`,
    );
  }
  log(`ok   ${what} (${results.length} tests)`);
}

function envFor(ready, apiSecret) {
  return { EXCHANGE_BASE_URL: ready.url, EXCHANGE_API_KEY: ready.apiKey, EXCHANGE_API_SECRET: apiSecret };
}

/**
 * The app outside the workspace: the example's tests, its manifest with every workspace package from the install
 * source (so npm takes the internal dependencies from the same source), and Prism left out at first, to see the
 * cli ask for it. Keeps Prism's version for later.
 */
function installWithoutPrism(state) {
  const specs = installSpecs();
  mkdirSync(app, { recursive: true });
  cpSync(join(example, "test"), join(app, "test"), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(example, "package.json"), "utf8"));
  state.prismVersion = manifest.devDependencies["@stoplight/prism-cli"];
  const { "@stoplight/prism-cli": _prism, ...rest } = manifest.devDependencies;
  for (const name of Object.keys(rest))
    if (name.startsWith("@exchange-kit/") && !specs[name]) throw new Error(`${name} is not a workspace package`);
  manifest.devDependencies = {
    ...Object.fromEntries(Object.entries(rest).filter(([n]) => !n.startsWith("@exchange-kit/"))),
    ...specs,
  };
  writeFileSync(join(app, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  npm(["install"]);
  log("ok   installed the packages without Prism");
}

/** Without Prism, `exchange-kit mock` exits 1 naming the cli's own peer range (packages/cli/package.json). */
function mockAsksForPrism() {
  const withoutPrism = exec("npx", ["--no-install", "exchange-kit", "mock", "--port", "0"], { cwd: app });
  const cli = publishablePackages(root).find((pkg) => pkg.name === "@exchange-kit/cli");
  const hint = `npm install --save-dev @stoplight/prism-cli@${cli.peerDependencies["@stoplight/prism-cli"]}`;
  if (withoutPrism.status !== 1 || !withoutPrism.stderr.includes(hint)) {
    throw new Error(
      `without Prism, mock should exit 1 naming "${hint}"; got ${withoutPrism.status}:\n${withoutPrism.stdout}${withoutPrism.stderr}`,
    );
  }
  log("ok   without Prism, exchange-kit mock exits 1 with the exact install command");
}

function installPrism(state) {
  npm(["install", "--save-dev", `@stoplight/prism-cli@${state.prismVersion}`]);
}

/** Starts `npx exchange-kit <cliArgs>`, runs `check` with the environment the tests read, and stops the server. */
async function withServer(cliArgs, apiSecretOf, check) {
  const server = await startServer(cliArgs);
  log(`ok   npx exchange-kit ${cliArgs[0]} ready at ${server.ready.url}`);
  try {
    await check(envFor(server.ready, apiSecretOf(server.ready)));
  } finally {
    await stopServer(server.child);
  }
}

/**
 * The tests the mock cannot pass: it checks neither signatures nor state. Every test of the file: "same reference,
 * same customer" passed against the mock until it also asked another reference for another customer.
 */
const MOCK_MUST_FAIL = [
  "a request signed with the wrong secret is refused with AUTH_INVALID_SIGNATURE",
  "a created customer is read back as it was created (state)",
  "creating a customer again with the same reference answers the same customer, not a second one",
];

function againstMock() {
  return withServer(
    ["mock"],
    (ready) => ready.apiSecret,
    (env) => {
      expectAllPassed("shape tests against the mock", vitest("test/shapes.contract.test.ts", env));
      const sandboxOnly = vitest("test/sandbox.contract.test.ts", env);
      const unlisted = sandboxOnly.results.filter((r) => !MOCK_MUST_FAIL.includes(r.title));
      if (unlisted.length > 0)
        throw new Error(`sandbox tests not in MOCK_MUST_FAIL: ${unlisted.map((r) => r.title).join("; ")}`);
      for (const title of MOCK_MUST_FAIL) {
        const result = sandboxOnly.results.find((r) => r.title === title);
        if (result?.status !== "failed")
          throw new Error(
            `against the mock, "${title}" should fail (the mock cannot check it); it ${result?.status ?? "did not run"}`,
          );
      }
      log(`ok   every sandbox-only test fails against the mock, as the guide says (${MOCK_MUST_FAIL.length} checked)`);
    },
  );
}

function againstSandbox() {
  const secret = "contract-example-secret";
  const cliArgs = ["sandbox", "--api-key", "contract-example-key", "--api-secret", secret];
  return withServer(
    cliArgs,
    () => secret,
    (env) => {
      expectAllPassed("shape tests against the sandbox", vitest("test/shapes.contract.test.ts", env));
      expectAllPassed("sandbox-only tests against the sandbox", vitest("test/sandbox.contract.test.ts", env));
    },
  );
}

/** The checks, in order; each step may leave what a later one needs in the shared state. */
const STEPS = [installWithoutPrism, mockAsksForPrism, installPrism, againstMock, againstSandbox];

async function main() {
  log(`install source: ${source}; app: ${app}`);
  const state = {};
  for (const step of STEPS) await step(state);
}

// Whatever happens, no server outlives the run.
const guard = setTimeout(() => {
  console.error("contract-examples: gave up after 15 minutes");
  for (const child of children) process.kill(-child.pid, "SIGKILL");
  process.exit(1);
}, 15 * 60_000);
guard.unref();

try {
  await main();
  log("all passed");
} catch (error) {
  failed = true;
  console.error(`contract-examples: FAILED: ${error instanceof Error ? error.message : error}`);
} finally {
  for (const child of children) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  }
  if (args.keep) log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
