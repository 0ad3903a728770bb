// The installed cli under Node 20 (fetched with `npx -y node@20`, as the runtime matrix does, then run as that
// binary itself, so that Ctrl-C reaches listen and no npx starts per command): --help, sandbox --help and
// trigger --help, sign (the document's signature), verify, listen forwarding an event that trigger moved, and
// sandbox and demo stopping in one line that names the Node they need.
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";

/** Runs a command to its end (killed after `budgetMs`): exit code, stdout, stderr. */
function execute(command, args, { cwd, env, budgetMs = 120_000 }) {
  return new Promise((resolve) => {
    const child = spawn(command[0], [...command.slice(1), ...args], { cwd, env: { ...env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), budgetMs);
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (e) => resolve({ code: -1, stdout, stderr: String(e) }));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal, stdout, stderr });
    });
  });
}

/** The signature of the document's scheme: Base64 HMAC-SHA256 of `key|timestamp|canonicalBody`. */
const signature = (key, secret, timestamp, body) =>
  createHmac("sha256", secret).update(`${key}|${timestamp}|${body}`).digest("base64");

/** Creates a customer in the sandbox with a signed request of its own (no package involved). */
async function createCustomer(baseUrl, key, secret) {
  const body = JSON.stringify({
    alpha_3_country_code: "IND",
    client_reference_id: `node20-${Date.now()}`,
    full_name: "Asha Verma",
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const headers = {
    "Content-Type": "application/json",
    "X-API-KEY": key,
    "X-TIMESTAMP": timestamp,
    "X-SIGNATURE": signature(key, secret, timestamp, body),
  };
  const answer = await fetch(`${baseUrl}/cms/api/v1/customer/create`, { method: "POST", headers, body });
  return (await answer.json()).data.id;
}

/** Starts a receiver on 127.0.0.1 that answers 200 and keeps each body. */
async function startReceiver() {
  const received = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push(body);
      res.writeHead(200).end();
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { received, server, url: `http://127.0.0.1:${server.address().port}/hooks` };
}

/** listen under Node 20, forwarding to a local receiver; trigger under Node 20; the event must come through. */
async function listenAndTrigger({ node, bin, cli, baseUrl, env }) {
  const receiver = await startReceiver();
  const args = [bin, "listen", "--base-url", baseUrl, "--forward-to", receiver.url];
  const listener = spawn(node, args, { cwd: cli, env: { ...env, NO_COLOR: "1" } });
  let out = "";
  listener.stdout.on("data", (d) => (out += d));
  listener.stderr.on("data", (d) => (out += d));
  const until = async (test, what) => {
    for (const deadline = Date.now() + 60_000; !test(); await new Promise((r) => setTimeout(r, 50)))
      if (Date.now() > deadline || listener.exitCode !== null) throw new Error(`${what}; listen printed:\n${out}`);
  };
  try {
    await until(() => out.includes("listening on"), "listen never said it was listening");
    const id = await createCustomer(baseUrl, env.EXCHANGE_API_KEY, env.EXCHANGE_API_SECRET);
    const trigger = [bin, "trigger", "CUSTOMER", "VERIFIED", "--id", id, "--base-url", baseUrl];
    const triggered = await execute([node], trigger, { cwd: cli, env });
    if (triggered.code !== 0) throw new Error(`trigger exited ${triggered.code}: ${triggered.stderr}`);
    const arrived = () =>
      out.includes(`verified CUSTOMER VERIFIED ${id}`) && receiver.received.some((b) => b.includes(id));
    await until(arrived, "the event did not come through");
  } finally {
    listener.kill("SIGINT"); // listen puts back the webhook URL registered before it
    const force = setTimeout(() => listener.kill("SIGKILL"), 10_000);
    await new Promise((r) =>
      listener.exitCode === null && listener.signalCode === null ? listener.once("close", r) : r(),
    );
    clearTimeout(force);
    receiver.server.close();
  }
}

/** Each check: a name and a function that throws what went wrong. */
function checks({ node, bin, cli, baseUrl, env, log }) {
  const node20 = async (...args) => {
    const result = await execute([node], [bin, ...args], { cwd: cli, env });
    log(`--- node@20 exchange-kit ${args.join(" ")}: ${result.code}\n${result.stdout}${result.stderr}\n`);
    return result;
  };
  const expectHelp = async (args, text) => {
    const { code, stdout, stderr } = await node20(...args);
    if (code !== 0 || !stdout.includes(text)) throw new Error(`exit ${code}, stdout without "${text}": ${stderr}`);
  };
  const expectOneLine = async (command) => {
    const { code, stdout, stderr } = await node20(command);
    const lines = stderr.trim().split("\n");
    if (code !== 1 || stdout !== "" || lines.length !== 1 || !/^error: exchange-kit \w+ needs Node >=22/.test(lines[0]))
      throw new Error(`exit ${code}, stderr:\n${stderr}`);
    return lines[0];
  };
  return [
    ["--help", () => expectHelp(["--help"], "  sandbox ")],
    ["sandbox --help", () => expectHelp(["sandbox", "--help"], "exchange-kit sandbox [--port 4020]")],
    ["trigger --help", () => expectHelp(["trigger", "--help"], "CUSTOMER: VERIFIED")],
    [
      "sign",
      async () => {
        const args = ["sign", "--body", '{"b":2,"a":1}', "--timestamp", "1700000000", "--json"];
        const { code, stdout, stderr } = await node20(...args);
        const expected = signature(env.EXCHANGE_API_KEY, env.EXCHANGE_API_SECRET, "1700000000", '{"a":1,"b":2}');
        const printed = code === 0 ? JSON.parse(stdout).headers["X-SIGNATURE"] : stderr;
        if (printed !== expected) throw new Error(`signed ${printed}, expected ${expected}`);
      },
    ],
    [
      "verify",
      async () => {
        const body =
          '{"event":"VERIFIED","id":"0b3c5d7e-9f1a-4b2c-8d3e-5f6a7b8c9d0e","metadata":{},"timestamp":"2026-03-01T10:15:30Z","type":"CUSTOMER"}';
        const timestamp = String(Math.floor(Date.now() / 1000));
        const headers = {
          "X-TIMESTAMP": timestamp,
          "X-SIGNATURE": signature(env.EXCHANGE_API_KEY, env.EXCHANGE_API_SECRET, timestamp, body),
        };
        const file = join(cli, "node20-delivery.json");
        writeFileSync(file, JSON.stringify({ headers, body }));
        const { code, stdout, stderr } = await node20("verify", "--delivery", file);
        if (code !== 0 || !stdout.includes("valid CUSTOMER VERIFIED"))
          throw new Error(`exit ${code}: ${stdout}${stderr}`);
      },
    ],
    ["listen + trigger", () => listenAndTrigger({ node, bin, cli, baseUrl, env })],
    ["sandbox stops in one line", () => expectOneLine("sandbox")],
    ["demo stops in one line", () => expectOneLine("demo")],
  ];
}

/**
 * Runs the checks with the cli installed in `cli` (an app directory) against the sandbox at `baseUrl`.
 * @returns the number of failures (each printed).
 */
export async function checkCliOnNode20({ cli, baseUrl, env, log }) {
  const bin = join(cli, "node_modules", "@exchange-kit", "cli", "dist", "bin.js");
  const found = await execute(["npx", "-y", "node@20"], ["-p", "[process.execPath, process.version].join(' ')"], {
    cwd: cli,
    env,
    budgetMs: 240_000,
  });
  const [node, version] = found.stdout.trim().split(" ");
  if (found.code !== 0 || !version?.startsWith("v20.")) {
    console.error(`FAIL npx -y node@20 does not run here: ${found.stderr.trim().split("\n").at(-1)}`);
    return 1;
  }
  let failures = 0;
  for (const [name, check] of checks({ node, bin, cli, baseUrl, env, log })) {
    try {
      const said = await check();
      console.log(`ok   Node ${version}: exchange-kit ${name}${said ? ` (${said})` : ""}`);
    } catch (error) {
      failures++;
      console.error(`FAIL Node ${version}: exchange-kit ${name}: ${error.message}`);
    }
  }
  return failures;
}
