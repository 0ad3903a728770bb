// exchange-kit mock: Prism (the workspace's copy of the optional peer) on @exchange-kit/openapi's openapi.yaml.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { connect } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { readSpec, specFiles } from "@exchange-kit/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INSTALL_PRISM } from "../src/commands/mock.js";
import { meetsNodeRange } from "../src/node-range.js";
import { findPrism, PRISM_RANGE } from "../src/prism.js";
import { run, type Captured } from "./run.js";

const AUTH = { "X-API-KEY": "mock-api-key", "X-TIMESTAMP": "1767225600", "X-SIGNATURE": "c2lnbmF0dXJl" };
const NEW_CUSTOMER = { client_reference_id: "cust-mock-1", alpha_3_country_code: "IND", full_name: "Asha Verma" };
const CREATE = "/cms/api/v1/customer/create";
const WEBHOOKS = "/org/api/v1/organizations/api-webhooks";
/** A receiver on this machine, as every README registers it with the sandbox. */
const LOOPBACK_RECEIVER = { webhook_url: "http://127.0.0.1:8787/webhooks/exchange" };

/** Starts `exchange-kit mock` with these flags and resolves with its ready line. */
async function startMock(...flags: string[]): Promise<{ cli: Captured; ready: Record<string, any> }> {
  const cli = run(["mock", "--port", "0", "--json", ...flags]);
  const line = await Promise.race([
    cli.waitFor('"ready":true', 45_000),
    cli.code.then((code) => {
      throw new Error(`mock exited with ${code}: ${cli.stderr()}`);
    }),
  ]);
  return { cli, ready: JSON.parse(line.trim().split("\n")[0]!) };
}

/** POSTs a JSON body with the three auth headers (the mock checks they are there, not the signature). */
async function post(url: string, path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined, text };
}

describe("exchange-kit mock --help", () => {
  it("explains the Prefer header, validation and what to install", async () => {
    const cli = run(["mock", "--help"]);
    expect(await cli.code).toBe(0);
    const help = cli.stdout();
    expect(help).toContain("Prefer: code=404");
    expect(help).toContain("Prefer: example=NAME");
    expect(help).toContain("Prefer: dynamic=true");
    expect(help).toContain("--dynamic");
    expect(help).toContain("--port");
    expect(help).toContain("sl-violations");
    expect(help).toContain(INSTALL_PRISM);
  });

  it("is listed in the cli's help", async () => {
    const cli = run(["--help"]);
    expect(await cli.code).toBe(0);
    expect(cli.stdout()).toMatch(/^ {2}mock +serve the published spec with the Prism mock/m);
  });
});

describe("exchange-kit mock usage errors", () => {
  it("refuses a port that is not a port number", async () => {
    const cli = run(["mock", "--port", "70000"]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain("--port must be a port number");
  });

  it("refuses --sandbox together with --spec", async () => {
    const cli = run(["mock", "--sandbox", "--spec", specFiles.yaml]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain("give one of them");
  });

  it("refuses a --spec file that does not exist", async () => {
    const cli = run(["mock", "--spec", join(tmpdir(), "no-such-spec.yaml")]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain("--spec: no file at");
  });
});

describe("finding Prism", () => {
  it("finds nothing from a directory that cannot reach a Prism install", () => {
    const empty = mkdtempSync(join(tmpdir(), "exchange-kit-no-prism-"));
    try {
      expect(findPrism([empty])).toBeUndefined();
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("finds the workspace's Prism with its bin and the Node range it needs", () => {
    const found = findPrism([process.cwd()]);
    expect(found?.bin).toMatch(/prism-cli[\\/]dist[\\/]index\.js$/);
    expect(found?.version).toMatch(/^5\./);
    expect(found?.nodeRange).toMatch(/^>=/);
  });

  it("asks for the same Prism range the package declares as its optional peer", () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8"));
    expect(pkg.peerDependencies["@stoplight/prism-cli"]).toBe(PRISM_RANGE);
    expect(pkg.peerDependenciesMeta["@stoplight/prism-cli"]).toEqual({ optional: true });
    expect(pkg.dependencies["@stoplight/prism-cli"]).toBeUndefined();
    expect(INSTALL_PRISM).toBe(`npm install --save-dev @stoplight/prism-cli@${PRISM_RANGE}`);
  });

  it("compares the running Node with Prism's >= range", () => {
    expect(meetsNodeRange("24.21.0", ">=24.18.0")).toBe(true);
    expect(meetsNodeRange("24.18.0", ">=24.18.0")).toBe(true);
    expect(meetsNodeRange("24.17.9", ">=24.18.0")).toBe(false);
    expect(meetsNodeRange("22.20.0", ">=24.18.0")).toBe(false);
    expect(meetsNodeRange("26.0.0", ">=24.18.0")).toBe(true);
    expect(meetsNodeRange("20.0.0", undefined)).toBe(true);
  });
});

describe("exchange-kit mock serving the published spec", () => {
  let cli: Captured;
  let url = "";
  const spec = readSpec();

  beforeAll(async () => {
    ({
      cli,
      ready: { url },
    } = await startMock());
  }, 60_000);

  afterAll(async () => {
    cli?.stop();
    await cli?.code;
  });

  const call = (path: string, body: unknown, headers: Record<string, string>) => post(url, path, body, headers);

  it("prints the URL on a real port, the credentials to use and the spec it serves", () => {
    const printed = JSON.parse(cli.stdout().trim().split("\n")[0]!);
    expect(printed).toMatchObject({
      ready: true,
      apiKey: "mock-api-key",
      apiSecret: "mock-api-secret",
      spec: specFiles.yaml,
      contract: "service",
      specVersion: spec.info.version,
    });
    expect(printed.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(printed.url).not.toMatch(/:0$/);
  });

  it("answers a request with the three auth headers and a valid body with the spec's example", async () => {
    const res = await call(CREATE, NEW_CUSTOMER, AUTH);
    expect(res.status, res.text).toBe(200);
    const op = spec.paths[CREATE]?.post as {
      responses: Record<
        string,
        { content: Record<string, { examples?: Record<string, { value: unknown }>; example?: unknown }> }
      >;
    };
    const media = op.responses["200"]!.content["application/json"]!;
    expect(res.json).toEqual(media.example ?? Object.values(media.examples ?? {})[0]?.value);
  });

  it("rejects a request without the auth headers with 401", async () => {
    const res = await call(CREATE, NEW_CUSTOMER, {});
    expect(res.status).toBe(401);
  });

  it("rejects a body that breaks the schema and names the violation", async () => {
    const { client_reference_id: _omitted, ...body } = NEW_CUSTOMER;
    const res = await call(CREATE, body, AUTH);
    expect([400, 422]).toContain(res.status);
    expect(res.headers.get("sl-violations") ?? "").toMatch(/client_reference_id/);
  });

  it("refuses an http:// webhook URL, loopback included, as the service does (it requires https://)", async () => {
    const res = await call(WEBHOOKS, LOOPBACK_RECEIVER, AUTH);
    expect([400, 422]).toContain(res.status);
    expect(res.headers.get("sl-violations") ?? "").toMatch(/webhook_url/);
    expect((await call(WEBHOOKS, { webhook_url: "https://hooks.example.in/exchange" }, AUTH)).status).toBe(200);
  });

  it("serves the response the Prefer header asks for", async () => {
    const res = await call(CREATE, NEW_CUSTOMER, { ...AUTH, Prefer: "code=400" });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: false });
  });

  it("stops Prism and exits 0 when stopped", async () => {
    cli.stop();
    expect(await cli.code).toBe(0);
    await expect(fetch(`${url}${CREATE}`, { method: "POST", signal: AbortSignal.timeout(2000) })).rejects.toThrow();
  });
});

describe("exchange-kit mock --sandbox", () => {
  let cli: Captured;
  let url = "";
  let ready: Record<string, any>;
  let copies: string[] = [];
  const mockDirs = () => readdirSync(tmpdir()).filter((name) => name.startsWith("exchange-kit-mock-"));

  beforeAll(async () => {
    const before = new Set(mockDirs());
    ({ cli, ready } = await startMock("--sandbox"));
    url = ready.url;
    copies = mockDirs().filter((name) => !before.has(name));
  }, 60_000);

  afterAll(async () => {
    cli?.stop();
    await cli?.code;
  });

  it("says it serves the sandbox's spec", () => {
    expect(ready).toMatchObject({
      contract: "sandbox",
      spec: specFiles.sandboxJson,
      specVersion: readSpec().info.version,
    });
    expect(cli.stdout()).not.toContain("exchange-kit-mock-");
  });

  it("takes an http:// webhook URL on loopback, as the sandbox does", async () => {
    const res = await post(url, WEBHOOKS, LOOPBACK_RECEIVER, AUTH);
    expect(res.status, res.headers.get("sl-violations") ?? res.text).toBe(200);
  });

  it("still refuses an http:// webhook URL that is not on loopback", async () => {
    const res = await post(url, WEBHOOKS, { webhook_url: "http://hooks.example.in/exchange" }, AUTH);
    expect([400, 422]).toContain(res.status);
  });

  it("requires the members the sandbox requires where the interface leaves them open", async () => {
    const { alpha_3_country_code: _omitted, ...body } = NEW_CUSTOMER;
    const res = await post(url, CREATE, body, AUTH);
    expect([400, 422]).toContain(res.status);
    expect(res.headers.get("sl-violations") ?? "").toMatch(/alpha_3_country_code/);
  });

  it("removes its copy of the spec when it stops", async () => {
    expect(copies).toHaveLength(1);
    expect(existsSync(join(tmpdir(), copies[0]!))).toBe(true);
    cli.stop();
    expect(await cli.code).toBe(0);
    expect(existsSync(join(tmpdir(), copies[0]!))).toBe(false);
  });
});

/** Whether a TCP connection to the port is accepted (closed at once, without a request). */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("exchange-kit mock killed with SIGKILL", () => {
  it("takes Prism down with it, so the port is free again", async () => {
    // A real process: SIGKILL runs no handler of the cli, so only Prism itself can notice that its parent is gone.
    const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
    const cli = spawn(process.execPath, [bin, "mock", "--port", "0", "--json"], { stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise((done) => cli.once("exit", done));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: cli.stdout! }).on("line", (text) => {
          if (text.includes('"ready":true')) resolve(text);
        });
        void exited.then(() => reject(new Error("mock exited before it was ready")));
      });
      const url: string = JSON.parse(line).url;
      expect((await fetch(`${url}${CREATE}`, { method: "POST", headers: AUTH })).status).toBeGreaterThan(0);

      cli.kill("SIGKILL");
      await exited;
      // Poll with bare TCP connections until the port refuses (the test's own timeout bounds it). No HTTP request:
      // one would make Prism write its log line into the dead cli's pipe and die of EPIPE, which is how an idle
      // Prism used to survive its cli (and hold the port) until something called it.
      const { hostname, port } = new URL(url);
      while (await accepts(hostname, Number(port))) await new Promise((done) => setTimeout(done, 100));
    } finally {
      cli.kill("SIGKILL");
    }
  }, 60_000);
});
