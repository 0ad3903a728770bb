// The built cli under a real Node 20 (the oldest Node the package supports): every command but sandbox and demo
// works, and those two stop in one line naming the Node they need. Skipped, with the reason in its name, when
// this machine has no Node 20.19+; the release check always runs the same commands under a fetched Node 20.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createSandbox, type Sandbox } from "@exchange-kit/sandbox";
import { computeSignature, signRequest } from "@exchange-kit/signing";
import { signTestWebhook } from "@exchange-kit/webhook-verify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runChild, startChild } from "./support/child.js";
import { findNode20, isSupportedNode20 } from "./support/node20.js";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const env = { EXCHANGE_API_KEY: "ek_node20_key", EXCHANGE_API_SECRET: "ek_node20_secret" };
const node20 = findNode20();
const sandboxRange = (
  createRequire(import.meta.url)("@exchange-kit/sandbox/package.json") as { engines: { node: string } }
).engines.node;

describe("finding a Node 20", () => {
  it.each([
    ["20.19.0", true],
    ["20.20.2", true],
    ["20.18.3", false],
    ["22.13.0", false],
    ["18.20.0", false],
  ])("takes %s as a supported Node 20: %s", (version, expected) => {
    expect(isSupportedNode20(version)).toBe(expected);
  });
});

describe.skipIf(!node20.found)(
  node20.found ? `the cli on Node ${node20.version} (${node20.bin})` : `the cli on Node 20: skipped, ${node20.why}`,
  () => {
    const node = node20.found ? node20.bin : "";
    const cli = (args: string[], extra: Record<string, string> = {}) =>
      runChild(node, [bin, ...args], { ...env, ...extra });
    let sandbox: Sandbox;
    let receiver: Server;
    let receiverUrl: string;
    const received: string[] = [];

    beforeAll(async () => {
      // The sandbox runs here, on the Node of the test run; the cli talks to it from Node 20.
      sandbox = await createSandbox({
        port: 0,
        organizations: [{ apiKey: env.EXCHANGE_API_KEY, apiSecret: env.EXCHANGE_API_SECRET }],
        autoProgressMs: false,
      });
      receiver = createServer((req, res) => {
        let body = "";
        req.on("data", (c) => (body += String(c)));
        req.on("end", () => {
          received.push(body);
          res.writeHead(200).end();
        });
      });
      await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    });

    afterAll(async () => {
      await sandbox?.close();
      await new Promise((r) => receiver?.close(r));
    });

    it("prints the help, listing every command, exit 0", async () => {
      const { code, stdout } = await cli(["--help"]);
      expect(code).toBe(0);
      for (const name of ["sandbox", "mock", "proxy", "sign", "verify", "listen", "trigger", "fault", "demo"])
        expect(stdout).toContain(`  ${name} `);
    });

    it("prints the usage of sandbox and trigger with --help", async () => {
      const sandboxHelp = await cli(["sandbox", "--help"]);
      expect(sandboxHelp.code).toBe(0);
      expect(sandboxHelp.stdout).toContain("exchange-kit sandbox [--port 4020]");
      const triggerHelp = await cli(["trigger", "--help"]);
      expect(triggerHelp.code).toBe(0);
      expect(triggerHelp.stdout).toContain("CUSTOMER: VERIFIED");
    });

    it("signs a body as the signing package does", async () => {
      const { code, stdout } = await cli(["sign", "--body", '{"b":2,"a":1}', "--timestamp", "1700000000", "--json"]);
      expect(code).toBe(0);
      const expected = await computeSignature({
        ...credentials(),
        timestamp: "1700000000",
        canonicalBody: '{"a":1,"b":2}',
      });
      expect(JSON.parse(stdout).headers["X-SIGNATURE"]).toBe(expected);
    });

    it("verifies a saved delivery", async () => {
      const delivery = await signTestWebhook({
        ...credentials(),
        event: {
          type: "CUSTOMER",
          id: "0b3c5d7e-9f1a-4b2c-8d3e-5f6a7b8c9d0e",
          event: "VERIFIED",
          timestamp: "2026-03-01T10:15:30Z",
          metadata: {},
        },
      });
      const file = join(mkdtempSync(join(tmpdir(), "exchange-kit-node20-")), "delivery.json");
      writeFileSync(file, JSON.stringify({ headers: delivery.headers, body: delivery.body }));
      const { code, stdout } = await cli(["verify", "--delivery", file]);
      expect(code).toBe(0);
      expect(stdout).toContain("valid CUSTOMER VERIFIED");
    });

    it("forwards a triggered event with listen, both on Node 20", async () => {
      const listener = startChild(node, [bin, "listen", "--base-url", sandbox.url, "--forward-to", receiverUrl], env);
      try {
        await listener.line("listening on");
        const customer = await post("/cms/api/v1/customer/create", {
          client_reference_id: `node20-${Date.now()}`,
          alpha_3_country_code: "IND",
          full_name: "Asha Verma",
        });
        const triggered = await cli([
          "trigger",
          "CUSTOMER",
          "VERIFIED",
          "--id",
          customer.id,
          "--base-url",
          sandbox.url,
        ]);
        expect(triggered.code).toBe(0);
        expect(await listener.line(`verified CUSTOMER VERIFIED ${customer.id}`)).toContain("-> 200");
        expect(received.some((body) => body.includes(customer.id))).toBe(true);
      } finally {
        await listener.kill();
      }
    });

    it("checks traffic with proxy, which loads the contract checker but not node:sqlite", async () => {
      const proxy = startChild(node, [bin, "proxy", "--target", sandbox.url, "--port", "0", "--json"], env);
      try {
        const ready = JSON.parse(await proxy.line('"ready":true')) as { url: string };
        const signed = await signRequest({ ...credentials() });
        const answer = await fetch(`${ready.url}/cms/api/v1/customer/list`, { headers: signed.headers });
        expect(answer.status).toBe(200);
      } finally {
        await proxy.kill();
      }
    });

    it.each(["sandbox", "demo"])("stops %s in one line naming the Node it needs, exit 1", async (command) => {
      const { code, stdout, stderr } = await cli([command]);
      expect(code).toBe(1);
      expect(stdout).toBe("");
      expect(stderr.trim().split("\n")).toEqual([
        `error: exchange-kit ${command} needs Node ${sandboxRange} (the sandbox stores its state with node:sqlite); this is Node ${node20.found ? node20.version : ""}. The other commands run on Node 20.19 or later.`,
      ]);
    });

    function credentials() {
      return { apiKey: env.EXCHANGE_API_KEY, apiSecret: env.EXCHANGE_API_SECRET };
    }

    async function post(path: string, body: object): Promise<{ id: string }> {
      const signed = await signRequest({ ...credentials(), body });
      const answer = await fetch(`${sandbox.url}${path}`, {
        method: "POST",
        headers: signed.headers,
        body: signed.body,
      });
      return ((await answer.json()) as { data: { id: string } }).data;
    }
  },
);
