import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { signRequest } from "@exchange-kit/signing";
import { verifyWebhook } from "@exchange-kit/webhook-verify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, type Captured } from "./run.js";

const env = { EXCHANGE_API_KEY: "ek_cli_key", EXCHANGE_API_SECRET: "ek_cli_secret" };
const credentials = { apiKey: env.EXCHANGE_API_KEY, apiSecret: env.EXCHANGE_API_SECRET };
let sandbox: Captured;
let base: string;
let receiver: Server;
let receiverUrl: string;
const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];

async function call(method: "GET" | "POST", path: string, body?: object) {
  const signed = await signRequest({ ...credentials, body });
  const response = await fetch(`${base}${path}`, { method, headers: signed.headers, body: signed.body });
  return (await response.json()) as { status: boolean; data: { id: string; status: string } };
}

beforeAll(async () => {
  sandbox = run(["sandbox", "--port", "0", "--auto-progress", "off", "--json"], env);
  const line = await sandbox.waitFor("\n");
  base = JSON.parse(line.split("\n")[0]!).url;
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += String(c)));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});

afterAll(async () => {
  sandbox.stop();
  await sandbox.code;
  await new Promise((r) => receiver.close(r));
});

describe("exchange-kit sandbox", () => {
  it("prints one ready line with the URL and the API key it was given, never the given secret", () => {
    const ready = JSON.parse(sandbox.stdout().split("\n")[0]!);
    expect(ready).toMatchObject({ ready: true, apiKey: env.EXCHANGE_API_KEY });
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.stdout()).not.toContain(env.EXCHANGE_API_SECRET);
  });

  it("prints each organization's dashboard link in the ready line, and the link opens that organization", async () => {
    const ready = JSON.parse(sandbox.stdout().split("\n")[0]!);
    expect(ready.dashboard).toEqual([
      {
        name: "Default organization",
        apiKey: env.EXCHANGE_API_KEY,
        url: expect.stringMatching(/\/_dashboard\/#token=[\w-]{43}$/),
      },
    ]);
    expect(ready.dashboard[0].url.startsWith(ready.url)).toBe(true);
    const link = new URL(ready.dashboard[0].url).hash.slice("#token=".length);
    const entered = await fetch(`${ready.url}/_dashboard/api/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ link }),
    });
    expect(entered.status).toBe(201);
    const { token, organization } = (await entered.json()) as { token: string; organization: { name: string } };
    expect(organization.name).toBe("Default organization");
    const records = await fetch(`${ready.url}/_dashboard/api/records?kind=customers`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(records.status).toBe(200);
    // The built package serves its page and files (dashboard-ui/, shipped beside dist/).
    const page = await fetch(`${ready.url}/_dashboard/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('src="/_dashboard/assets/app.js"');
    const script = await fetch(`${ready.url}/_dashboard/assets/app.js`);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
  });

  it("prints the dashboard link in the human ready line too", async () => {
    const other = run(["sandbox", "--port", "0"], env);
    const line = (await other.waitFor("\n")).split("\n")[0]!;
    expect(line).toMatch(
      /^sandbox ready at http:\/\/127\.0\.0\.1:\d+ \(API key ek_cli_key\); dashboard http:\/\/127\.0\.0\.1:\d+\/_dashboard\/#token=[\w-]{43}$/,
    );
    other.stop();
    expect(await other.code).toBe(0);
  });

  it("generates and prints a key pair when no credentials are given, and that pair works", async () => {
    const other = run(["sandbox", "--port", "0", "--json"], {});
    const ready = JSON.parse((await other.waitFor("\n")).split("\n")[0]!);
    expect(ready.apiKey).toBeTruthy();
    expect(ready.apiSecret).toBeTruthy();
    const signed = await signRequest({ apiKey: ready.apiKey, apiSecret: ready.apiSecret });
    const answer = await fetch(`${ready.url}/cms/api/v1/customer/list`, { headers: signed.headers });
    expect(answer.status).toBe(200);
    other.stop();
    expect(await other.code).toBe(0);
  });
});

describe("exchange-kit listen and trigger", () => {
  it("forwards a triggered event, verified and byte for byte, to the local receiver", async () => {
    const listener = run(["listen", "--base-url", base, "--forward-to", receiverUrl, "--json"], env);
    await listener.waitFor('"listening"');
    const customer = await call("POST", "/cms/api/v1/customer/create", {
      client_reference_id: `cli-${Date.now()}`,
      alpha_3_country_code: "IND",
      full_name: "Asha Verma",
    });
    expect(customer.status).toBe(true);

    const trigger = run(["trigger", "customer", "verified", "--id", customer.data.id, "--base-url", base], env);
    expect(await trigger.code).toBe(0);
    expect(trigger.stdout()).toContain("triggered CUSTOMER VERIFIED");

    await listener.waitFor('"forwarded":200');
    const delivery = received.find((d) => d.body.includes(customer.data.id))!;
    const event = await verifyWebhook({ body: delivery.body, headers: delivery.headers, ...credentials });
    expect(event).toMatchObject({ type: "CUSTOMER", event: "VERIFIED", id: customer.data.id });
    listener.stop();
    expect(await listener.code).toBe(0);
  });

  it("refuses PROCESSING, which is never sent as an event", async () => {
    const cli = run(["trigger", "PAYOUT", "PROCESSING", "--id", "x"], env);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain("PROCESSING is never sent as an event");
  });

  it("reports the sandbox's err_code when the record does not exist", async () => {
    const cli = run(
      ["trigger", "BANK", "VERIFIED", "--id", "00000000-0000-4000-8000-000000000000", "--base-url", base, "--json"],
      env,
    );
    expect(await cli.code).toBe(1);
    expect(JSON.parse(cli.stderr()).message).toMatch(/^4\d\d /);
  });
});

describe("exchange-kit trigger, failures", () => {
  it("lists the failure reasons the spec allows for an unknown one, exit 2, nothing sent", async () => {
    const cli = run(
      [
        "trigger",
        "BANK",
        "FAILED",
        "--id",
        "00000000-0000-4000-8000-000000000000",
        "--failure-reason",
        "BECAUSE",
        "--base-url",
        base,
      ],
      env,
    );
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain(
      'unknown failure_reason "BECAUSE" for BANK FAILED: one of ACCOUNT_TYPE_NRE, PENNY_DROP_FAILED, NAME_MISMATCH, BANK_RISK_CHECK_FAILED',
    );
  });

  it("refuses a reason the event does not carry, naming the ones it does", async () => {
    const cli = run(["trigger", "PAYOUT", "IN_REVIEW", "--id", "x", "--failure-reason", "KYC_FAILED"], env);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain("PAYOUT IN_REVIEW has no failure_reason: it takes --reason");
  });

  it("names the sandbox URL and how to start it when the sandbox is down, exit 1", async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const down = `http://127.0.0.1:${closed}`;
    const cli = run(
      ["trigger", "CUSTOMER", "VERIFIED", "--id", "00000000-0000-4000-8000-000000000000", "--base-url", down],
      env,
    );
    expect(await cli.code).toBe(1);
    expect(cli.stderr()).toContain(`cannot reach the sandbox at ${down}`);
    expect(cli.stderr()).toContain("exchange-kit sandbox");
  });
});

describe("exchange-kit listen, on exit", () => {
  const settings = async () =>
    ((await call("GET", "/_sandbox/settings")) as unknown as { data: { webhook_url: string | null } }).data.webhook_url;

  it("puts back the webhook URL that was registered before it", async () => {
    await call("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: "https://hooks.example.com/exchange" });
    const listener = run(["listen", "--base-url", base, "--forward-to", receiverUrl, "--json"], env);
    const listening = JSON.parse((await listener.waitFor('"listening"')).trim().split("\n").at(-1)!).listening;
    expect(await settings()).toBe(listening);
    listener.stop();
    expect(await listener.code).toBe(0);
    expect(await settings()).toBe("https://hooks.example.com/exchange");
  });

  it("saves several deliveries with --save in a file verify --delivery reads whole", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "exchange-kit-listen-")), "deliveries.jsonl");
    const listener = run(["listen", "--base-url", base, "--forward-to", receiverUrl, "--save", file, "--json"], env);
    await listener.waitFor('"listening"');
    for (const name of ["Asha Verma", "Ravi Kumar"]) {
      const customer = await call("POST", "/cms/api/v1/customer/create", {
        client_reference_id: `save-${name}-${Date.now()}`,
        alpha_3_country_code: "IND",
        full_name: name,
      });
      const trigger = run(["trigger", "CUSTOMER", "VERIFIED", "--id", customer.data.id, "--base-url", base], env);
      expect(await trigger.code).toBe(0);
    }
    while (listener.stdout().split('"forwarded"').length - 1 < 2) await new Promise((r) => setTimeout(r, 20));
    listener.stop();
    expect(await listener.code).toBe(0);
    const verify = run(["verify", "--delivery", file, "--json"], env);
    expect(await verify.code).toBe(0);
    const results = verify
      .stdout()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(results).toHaveLength(2);
    expect(results.every((r) => r.valid === true && r.event.type === "CUSTOMER")).toBe(true);
  });

  it("unregisters its own URL when none was registered before", async () => {
    await call("POST", "/_sandbox/settings", { webhook_url: null } as unknown as object);
    const listener = run(["listen", "--base-url", base, "--forward-to", receiverUrl, "--json"], env);
    await listener.waitFor('"listening"');
    listener.stop();
    expect(await listener.code).toBe(0);
    expect(await settings()).toBeNull();
  });
});

describe("exchange-kit sandbox with several organizations", () => {
  it("serves each --org with its own credentials and keeps their records apart", async () => {
    const cli = run(
      ["sandbox", "--port", "0", "--org", "key_a:secret_a:Org A", "--org", "key_b:secret_b", "--json"],
      {},
    );
    const ready = JSON.parse((await cli.waitFor("\n")).split("\n")[0]!);
    expect(ready.organizations).toEqual(["key_a", "key_b"]);
    expect(ready.apiSecret).toBeUndefined();
    const as = async (apiKey: string, apiSecret: string, method: "GET" | "POST", path: string, body?: object) => {
      const signed = await signRequest({ apiKey, apiSecret, body });
      return (await fetch(`${ready.url}${path}`, { method, headers: signed.headers, body: signed.body }).then((r) =>
        r.json(),
      )) as any;
    };
    const created = await as("key_a", "secret_a", "POST", "/cms/api/v1/customer/create", {
      client_reference_id: "org-a-1",
      alpha_3_country_code: "IND",
      full_name: "Asha Verma",
    });
    expect(created.status).toBe(true);
    const other = await as("key_b", "secret_b", "GET", `/cms/api/v1/customer/${created.data.id}`);
    expect(other.status).toBe(false);
    expect(["USR_NOT_FOUND", "AUTH_ORG_MISMATCH"]).toContain(other.err_code);
    cli.stop();
    expect(await cli.code).toBe(0);
  });

  it("exits 2 for an --org without a secret", async () => {
    const cli = run(["sandbox", "--port", "0", "--org", "only_a_key"], {});
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain("--org takes KEY:SECRET");
  });
});
