// exchange-kit proxy end to end, over real HTTP: the sandbox as the target (a signed request must survive the trip),
// and a node:http server as a target that answers what a test tells it to and records what it received.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { constants, createBrotliCompress, createGzip, gzipSync, type BrotliCompress, type Gzip } from "node:zlib";
import { createSandbox, type Sandbox } from "@exchange-kit/sandbox";
import { signRequest } from "@exchange-kit/signing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, type Captured } from "./run.js";

const credentials = { apiKey: "ek_proxy_key", apiSecret: "ek_proxy_secret" };
const CREATE = "/cms/api/v1/customer/create";
const CUSTOMER = "/cms/api/v1/customer/3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f";
const WEBHOOKS = "/org/api/v1/organizations/api-webhooks";
/** A receiver on this machine, as every README registers it with the sandbox. */
const LOOPBACK_RECEIVER = { webhook_url: "http://127.0.0.1:8787/webhooks/exchange" };
const work = mkdtempSync(join(tmpdir(), "exchange-kit-proxy-"));
const newCustomer = () => ({
  client_reference_id: `proxy-${Date.now()}`,
  alpha_3_country_code: "IND",
  full_name: "Asha Verma",
});

/** What the fake target received, and what it answers next. */
interface Received {
  method: string;
  url: string;
  rawHeaders: string[];
  headers: IncomingHttpHeaders;
  body: Buffer;
}
const received: Received[] = [];
let answer: { status: number; headers: Record<string, string>; body: Buffer | string } = {
  status: 200,
  headers: {},
  body: "",
};
let fake: Server;
let fakeUrl = "";
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await createSandbox({ port: 0, organizations: [{ name: "Proxy", ...credentials }], autoProgressMs: false });
  fake = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        method: req.method!,
        url: req.url!,
        rawHeaders: req.rawHeaders,
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      res.writeHead(answer.status, answer.headers).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await sandbox.close();
  await new Promise((resolve) => fake.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

interface Running {
  cli: Captured;
  url: string;
  /** Every JSON line printed so far. */
  lines(): Record<string, any>[];
  /** Resolves once an exchange on `path` was printed (its violations are printed with it). */
  exchanged(path: string): Promise<void>;
  stop(): Promise<number>;
}

async function startProxyCli(target: string, ...args: string[]): Promise<Running> {
  const cli = run(["proxy", "--target", target, "--port", "0", "--json", ...args]);
  const ready = await Promise.race([
    cli.waitFor('"ready":true'),
    cli.code.then((code) => {
      throw new Error(`proxy exited ${code}: ${cli.stderr()}`);
    }),
  ]);
  const lines = () =>
    cli
      .stdout()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  return {
    cli,
    url: JSON.parse(ready.split("\n")[0]!).url,
    lines,
    exchanged: async (path) => void (await cli.waitFor(`"path":"${path}","status"`)),
    stop: async () => {
      cli.stop();
      return cli.code;
    },
  };
}

/** `mebibytes` MiB of zeros through `compressor`, a chunk at a time: a few hundred kilobytes at most. */
function bomb(compressor: BrotliCompress | Gzip, mebibytes: number): Promise<Buffer> {
  const chunk = Buffer.alloc(1024 * 1024);
  return buffer(Readable.from(Array.from({ length: mebibytes }, () => chunk)).pipe(compressor));
}

const violations = (p: Running) =>
  p
    .lines()
    .filter((l) => l.violation)
    .map((l) => l.violation);

/**
 * A request with exactly these raw headers (fetch would add and reorder some) and the body written in these chunks
 * (more than one and no Content-Length: sent chunked).
 */
function rawRequest(url: string, method: string, rawHeaders: string[], chunks: Buffer[]) {
  const { host } = new URL(url);
  return new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    const req = request(url, { method, headers: ["Host", host, ...rawHeaders] }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, body: Buffer.concat(parts) }));
    });
    req.on("error", reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe("exchange-kit proxy in front of the sandbox", () => {
  let proxy: Running;
  beforeAll(async () => {
    proxy = await startProxyCli(sandbox.url);
  });
  afterAll(async () => {
    await proxy.stop();
  });

  it("prints one ready line with its URL, the target and the spec it checks against", () => {
    expect(proxy.lines()[0]).toMatchObject({ ready: true, target: `${sandbox.url}/`, spec: expect.any(String) });
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("forwards a signed request that the sandbox answers 200 (the signed bytes arrived as signed), with no violation", async () => {
    const signed = await signRequest({ ...credentials, body: newCustomer() });
    const res = await fetch(`${proxy.url}${CREATE}`, { method: "POST", headers: signed.headers, body: signed.body });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as { status: boolean }).status).toBe(true);
    await proxy.exchanged(CREATE);
    expect(proxy.lines()).toContainEqual({
      exchange: { method: "POST", path: CREATE, status: 200, operationId: "createCustomer" },
    });
    expect(violations(proxy)).toEqual([]);
  });

  it("holds a loopback http:// webhook URL to the service's rule (https://) by default, and says so", async () => {
    const signed = await signRequest({ ...credentials, body: LOOPBACK_RECEIVER });
    const res = await fetch(`${proxy.url}${WEBHOOKS}`, { method: "POST", headers: signed.headers, body: signed.body });
    expect(res.status, await res.text()).toBe(200);
    await proxy.exchanged(WEBHOOKS);
    expect(proxy.lines()[0]).toMatchObject({ contract: "service" });
    expect(violations(proxy)).toContainEqual(
      expect.objectContaining({ operationId: "registerWebhook", part: "request", pointer: "/body/webhook_url" }),
    );
  });

  it("prints no credential and no personal data from the exchange", () => {
    const printed = proxy.cli.stdout() + proxy.cli.stderr();
    expect(printed).not.toContain(credentials.apiKey);
    expect(printed).not.toContain("Asha Verma");
  });
});

describe("exchange-kit proxy --sandbox in front of the sandbox", () => {
  let proxy: Running;
  beforeAll(async () => {
    proxy = await startProxyCli(sandbox.url, "--sandbox");
  });
  afterAll(async () => {
    await proxy.stop();
  });

  it("says it checks against the sandbox's spec", () => {
    expect(proxy.lines()[0]).toMatchObject({ ready: true, contract: "sandbox" });
    expect(proxy.cli.stdout()).not.toContain("checked against spec");
  });

  it("takes a loopback http:// webhook URL, as the sandbox does, with no violation", async () => {
    const signed = await signRequest({ ...credentials, body: LOOPBACK_RECEIVER });
    const res = await fetch(`${proxy.url}${WEBHOOKS}`, { method: "POST", headers: signed.headers, body: signed.body });
    expect(res.status, await res.text()).toBe(200);
    await proxy.exchanged(WEBHOOKS);
    expect(violations(proxy)).toEqual([]);
  });

  it("holds a request to the members the sandbox requires", async () => {
    const { alpha_3_country_code: _omitted, ...body } = newCustomer();
    const signed = await signRequest({ ...credentials, body });
    await (await fetch(`${proxy.url}${CREATE}`, { method: "POST", headers: signed.headers, body: signed.body })).text();
    await proxy.exchanged(CREATE);
    expect(violations(proxy)).toContainEqual(
      expect.objectContaining({ operationId: "createCustomer", part: "request", rule: "required" }),
    );
  });
});

describe("exchange-kit proxy in front of a target that breaks the spec", () => {
  let proxy: Running;
  const file = join(work, "violations.jsonl");
  beforeAll(async () => {
    proxy = await startProxyCli(fakeUrl, "--violations", file);
  });
  afterAll(async () => {
    await proxy.stop();
  });

  const headers = [
    "X-API-KEY",
    "k",
    "X-TIMESTAMP",
    "1700000000",
    "X-SIGNATURE",
    "c2ln+/=",
    "Content-Type",
    "application/json",
  ];
  const body = Buffer.from('{ "full_name" :"Asha  Verma",\n "client_reference_id":"c-1","alpha_3_country_code":"IND"}');

  it("passes the request's method, path, query, headers and body bytes to the target untouched", async () => {
    answer = { status: 200, headers: { "content-type": "application/json" }, body: "{}" };
    received.length = 0;
    const sent = [...headers, "Content-Length", String(body.length), "X-Trace", "a", "x-trace", "b"];
    expect((await rawRequest(`${proxy.url}${CREATE}?dry=1&x=%20`, "POST", sent, [body])).status).toBe(200);
    expect(received[0]).toMatchObject({ method: "POST", url: `${CREATE}?dry=1&x=%20` });
    expect(received[0]!.body.equals(body)).toBe(true);
    const names = received[0]!.rawHeaders.filter((_, i) => i % 2 === 0);
    expect(names.filter((n) => !/^(host|connection)$/i.test(n))).toEqual([...sent.filter((_, i) => i % 2 === 0)]);
    expect(received[0]!.headers).toMatchObject({
      "x-signature": "c2ln+/=",
      "x-trace": "a, b",
      host: new URL(fakeUrl).host,
    });
  });

  it("passes a body sent in chunks (no Content-Length) as the same bytes", async () => {
    answer = { status: 200, headers: { "content-type": "application/json" }, body: "{}" };
    received.length = 0;
    const chunks = [body.subarray(0, 10), body.subarray(10)];
    expect((await rawRequest(`${proxy.url}${CREATE}`, "POST", headers, chunks)).status).toBe(200);
    expect(received[0]!.body.equals(body)).toBe(true);
    expect(received[0]!.headers["transfer-encoding"]).toBe("chunked");
  });

  it("passes the answer's status, headers and body bytes back untouched", async () => {
    const bytes = '{"status":true, "message":"ok","data":{ "id":"3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f"}}';
    answer = { status: 200, headers: { "content-type": "application/json", "x-request-id": "r-1" }, body: bytes };
    const res = await fetch(`${proxy.url}${CUSTOMER}`, {
      headers: { "X-API-KEY": "k", "X-TIMESTAMP": "1", "X-SIGNATURE": "s" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("r-1");
    expect(await res.text()).toBe(bytes);
  });

  it("reports an answer that breaks the spec with the operation, the JSON pointers and the rules", async () => {
    const body = {
      status: true,
      message: "ok",
      data: { id: "not-a-uuid", client_reference_id: "c-1", full_name: 7, type: "INDIVIDUAL", status: "VERIFIED" },
    };
    answer = {
      status: 200,
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      body: gzipSync(JSON.stringify(body)),
    };
    const res = await fetch(`${proxy.url}${CUSTOMER}?seq=answer`, {
      headers: { "X-API-KEY": "k", "X-TIMESTAMP": "1", "X-SIGNATURE": "s" },
    });
    expect(await res.json()).toEqual(body);
    await proxy.exchanged(CUSTOMER);
    const found = violations(proxy).filter((v) => v.part === "response" && v.operationId === "getCustomer");
    expect(found.map((v) => [v.operationId, v.pointer, v.rule])).toEqual(
      expect.arrayContaining([
        ["getCustomer", "/body/data/country", "required"],
        ["getCustomer", "/body/data/id", "format"],
        ["getCustomer", "/body/data/full_name", "type"],
      ]),
    );
    expect(found.every((v) => v.status === 200 && v.path === CUSTOMER)).toBe(true);
  });

  it("reports a status the operation does not declare", async () => {
    answer = { status: 418, headers: { "content-type": "text/plain" }, body: "teapot" };
    await fetch(`${proxy.url}/cms/api/v1/customer/list`, {
      headers: { "X-API-KEY": "k", "X-TIMESTAMP": "1", "X-SIGNATURE": "s" },
    });
    await proxy.exchanged("/cms/api/v1/customer/list");
    expect(violations(proxy)).toContainEqual(
      expect.objectContaining({ operationId: "listCustomers", pointer: "/status", rule: "status" }),
    );
  });

  it("reports a request that breaks the spec, and forwards it all the same", async () => {
    answer = {
      status: 400,
      headers: { "content-type": "application/json" },
      body: '{"status":false,"message":"bad","err_code":"INPUT_MALFORMED"}',
    };
    received.length = 0;
    const body = JSON.stringify({ alpha_3_country_code: "in", full_name: "Asha Verma", email: "asha@example.com" });
    const res = await fetch(`${proxy.url}${CREATE}`, {
      method: "POST",
      headers: { "content-type": "application/json", "X-API-KEY": "k", "X-TIMESTAMP": "1" },
      body,
    });
    expect(res.status).toBe(400);
    expect(received[0]!.body.toString()).toBe(body);
    await proxy.exchanged(CREATE);
    expect(
      violations(proxy)
        .filter((v) => v.part === "request")
        .map((v) => [v.operationId, v.pointer, v.rule]),
    ).toEqual(
      expect.arrayContaining([
        ["createCustomer", "/headers/x-signature", "security"],
        ["createCustomer", "/body/client_reference_id", "required"],
        ["createCustomer", "/body/alpha_3_country_code", "pattern"],
      ]),
    );
  });

  it("reports a path the spec does not have, and forwards it all the same", async () => {
    answer = {
      status: 404,
      headers: { "content-type": "application/json" },
      body: '{"status":false,"message":"no","err_code":"NOT_FOUND"}',
    };
    received.length = 0;
    const res = await fetch(`${proxy.url}/cms/api/v1/nothing/here?email=asha@example.com`, { method: "DELETE" });
    expect(res.status).toBe(404);
    expect(received[0]).toMatchObject({ method: "DELETE", url: "/cms/api/v1/nothing/here?email=asha@example.com" });
    await proxy.exchanged("/cms/api/v1/nothing/here");
    expect(violations(proxy)).toContainEqual(
      expect.objectContaining({
        operationId: null,
        rule: "operation",
        message: "no operation for DELETE /cms/api/v1/nothing/here",
      }),
    );
  });

  it("forwards a brotli request and a gzip answer that inflate to 256 MiB untouched, checking neither past 16 MiB", async () => {
    const requestBomb = await bomb(createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }), 256);
    const answerBomb = await bomb(createGzip({ level: 9 }), 256);
    answer = {
      status: 200,
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      body: answerBomb,
    };
    received.length = 0;
    const sent = [...headers, "Content-Encoding", "br", "Content-Length", String(requestBomb.length)];
    const res = await rawRequest(`${proxy.url}${CREATE}?bomb=1`, "POST", sent, [requestBomb]);
    expect(res.status).toBe(200);
    expect(res.body.equals(answerBomb)).toBe(true);
    expect(received[0]!.body.equals(requestBomb)).toBe(true);
    // Violation lines name parts too: wait for the two unchecked lines by their reasons.
    await proxy.cli.waitFor('"reason":"inflates past 16 MiB (br)"');
    await proxy.cli.waitFor('"reason":"inflates past 16 MiB (gzip)"');
    const unchecked = proxy
      .lines()
      .filter((l) => l.unchecked?.path === CREATE)
      .map((l) => l.unchecked);
    expect(unchecked).toEqual(
      expect.arrayContaining([
        { method: "POST", path: CREATE, part: "request", reason: "inflates past 16 MiB (br)" },
        { method: "POST", path: CREATE, part: "response", reason: "inflates past 16 MiB (gzip)" },
      ]),
    );
  });

  it("answers 502 when the target cannot be reached, and says so", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const dead = await startProxyCli(deadUrl);
    try {
      const res = await fetch(`${dead.url}/cms/api/v1/customer/list`);
      expect(res.status).toBe(502);
      expect(await res.text()).toContain("did not answer (ECONNREFUSED)");
      await dead.cli.waitFor('"failure"');
    } finally {
      await dead.stop();
    }
  });

  it("writes each violation as a JSON line, with where and which rule but no value, credential or query", async () => {
    expect(await proxy.stop()).toBe(0); // violations, but no --fail-on-violation
    const written = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(written.length).toBe(violations(proxy).length);
    expect(written).toContainEqual(
      expect.objectContaining({
        method: "GET",
        path: CUSTOMER,
        status: 200,
        operationId: "getCustomer",
        part: "response",
        pointer: "/body/data/id",
        rule: "format",
        at: expect.any(String),
      }),
    );
    const text = readFileSync(file, "utf8") + proxy.cli.stdout();
    for (const secret of ["c2ln+/=", "Asha", "asha@example.com", "not-a-uuid", "seq=answer"])
      expect(text).not.toContain(secret);
  });
});

describe("exchange-kit proxy --fail-on-violation", () => {
  it("exits 1 at the end of a run that saw a violation", async () => {
    const proxy = await startProxyCli(fakeUrl, "--fail-on-violation");
    answer = { status: 200, headers: { "content-type": "application/json" }, body: "{}" };
    await fetch(`${proxy.url}/not/in/the/spec`);
    await proxy.exchanged("/not/in/the/spec");
    expect(await proxy.stop()).toBe(1);
    expect(proxy.lines().at(-1)).toEqual({ stopped: true, exchanges: 1, violations: 1 });
  });

  it("exits 0 at the end of a run without a violation", async () => {
    const proxy = await startProxyCli(sandbox.url, "--fail-on-violation");
    const signed = await signRequest({ ...credentials });
    expect((await fetch(`${proxy.url}/cms/api/v1/customer/list`, { headers: signed.headers })).status).toBe(200);
    await proxy.exchanged("/cms/api/v1/customer/list");
    expect(await proxy.stop()).toBe(0);
  });

  it("exits 1 when the process gets SIGTERM after a violation (the built binary)", async () => {
    const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
    const child = spawn(
      process.execPath,
      [bin, "proxy", "--target", fakeUrl, "--port", "0", "--json", "--fail-on-violation"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      const lines = createInterface({ input: child.stdout! });
      const seen: string[] = [];
      const waitFor = (text: string) =>
        new Promise<string>((resolve, reject) => {
          const found = seen.find((l) => l.includes(text));
          if (found) return resolve(found);
          lines.on("line", (line) => line.includes(text) && resolve(line));
          void exited.then(() => reject(new Error(`exited before printing ${text}`)));
        });
      lines.on("line", (line) => seen.push(line));
      const url: string = JSON.parse(await waitFor('"ready":true')).url;
      await fetch(`${url}/not/in/the/spec`);
      await waitFor('"violation"');
      child.kill("SIGTERM");
      expect(await exited).toBe(1);
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe("exchange-kit proxy usage", () => {
  it.each([
    [[], "--target URL is required"],
    [["--target", "not a url"], "--target is not a URL"],
    [["--target", "ftp://example.com"], "--target must be an http or https URL"],
    [["--target", "http://127.0.0.1:1", "--port", "70000"], "--port must be a port number"],
  ])("refuses %j with exit 2: %s", async (args, message) => {
    const cli = run(["proxy", ...args]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain(message);
  });

  it("is listed in the cli's help", async () => {
    const cli = run(["--help"]);
    expect(await cli.code).toBe(0);
    expect(cli.stdout()).toMatch(/^ {2}proxy +forward to the real service byte for byte/m);
  });
});
