// GET /_sandbox/ready: what a load balancer probes. Unsigned, without data: the API's envelope saying ready.
// (On PostgreSQL, 503 while the database is down: test/postgres/readiness.test.ts.)
import { afterEach, describe, expect, it } from "vitest";
import { readinessAnswer } from "../src/control/readiness.js";
import type { Sandbox } from "../src/index.js";
import { Api, createCustomer, ORG_A, startSandbox } from "./helpers.js";

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe("the readiness endpoint", () => {
  it.each([
    [true, 200, true],
    [false, 503, false],
  ])("a database that answers (%s) makes the probe %i", (answers, status, ok) => {
    const answer = readinessAnswer(answers);
    expect(answer.status).toBe(status);
    expect((answer.body as { status: boolean }).status).toBe(ok);
  });

  it("answers 200 to an unsigned GET, with no data of any organization", async () => {
    sandbox = await startSandbox();
    await createCustomer(new Api(sandbox), { full_name: "Never In A Probe" });
    const answer = await fetch(`${sandbox.url}/_sandbox/ready`);
    const text = await answer.text();
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(JSON.parse(text)).toEqual({ status: true, message: "Ready", data: null });
    for (const secret of ["Never In A Probe", ORG_A.apiKey, ORG_A.name, sandbox.organizations[0]!.id])
      expect(text).not.toContain(secret);
  });

  it("answers HEAD as GET, without a body", async () => {
    sandbox = await startSandbox();
    const answer = await fetch(`${sandbox.url}/_sandbox/ready`, { method: "HEAD" });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("");
  });

  it("refuses another method with 405 and says which it takes", async () => {
    sandbox = await startSandbox();
    const answer = await fetch(`${sandbox.url}/_sandbox/ready`, { method: "POST", body: "{}" });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("GET, HEAD");
  });

  it("is not written to any organization's request log, even with an API key", async () => {
    sandbox = await startSandbox();
    await fetch(`${sandbox.url}/_sandbox/ready`, { headers: { "x-api-key": ORG_A.apiKey } });
    const log = await new Api(sandbox).ok("GET", "/_sandbox/requests");
    expect(log.results.map((e: { path: string }) => e.path)).not.toContain("/_sandbox/ready");
  });
});
