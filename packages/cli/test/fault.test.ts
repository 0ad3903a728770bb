// exchange-kit fault and sandbox --chaos, against a real sandbox started by the cli itself.
import { REQUEST_FAULTS, WEBHOOK_FAULTS } from "@exchange-kit/sandbox";
import { signRequest } from "@exchange-kit/signing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chaosFlags, chaosLine } from "../src/commands/sandbox.js";
import { fault, faultBody } from "../src/commands/fault.js";
import { UsageError } from "../src/output.js";
import { type Captured, run } from "./run.js";

const env = { EXCHANGE_API_KEY: "ek_fault_key", EXCHANGE_API_SECRET: "ek_fault_secret" };
let sandbox: Captured;
let base: string;
let cli: Record<string, string>;

async function listCustomers(): Promise<number> {
  const signed = await signRequest({ apiKey: env.EXCHANGE_API_KEY, apiSecret: env.EXCHANGE_API_SECRET });
  return (await fetch(`${base}/cms/api/v1/customer/list`, { headers: signed.headers })).status;
}

async function runFault(...args: string[]) {
  const captured = run(["fault", ...args], cli);
  return { code: await captured.code, stdout: captured.stdout(), stderr: captured.stderr() };
}

/** The value a flag reader gives, or the message of the usage error it throws. */
function read<T>(reader: () => T): T | string {
  try {
    return reader();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return error.message;
  }
}

beforeAll(async () => {
  sandbox = run(["sandbox", "--port", "0", "--json"], env);
  base = JSON.parse((await sandbox.waitFor("\n")).split("\n")[0]!).url;
  cli = { ...env, EXCHANGE_BASE_URL: base };
});

afterAll(async () => {
  sandbox.stop();
  await sandbox.code;
});

describe("exchange-kit fault", () => {
  it("arms a fault that the sandbox then answers, and lists it as armed, then as fired", async () => {
    const added = await runFault("add", "--operation", "listCustomers", "--fault", "HTTP_503", "--times", "1");
    expect(added).toMatchObject({ code: 0, stderr: "" });
    expect(added.stdout).toMatch(/^armed HTTP_503 on listCustomers, 1 of 1 left \(/);
    expect((await runFault("list")).stdout).toContain("HTTP_503 on listCustomers, 1 of 1 left");
    expect(await listCustomers()).toBe(503);
    const listed = await runFault("list", "--json");
    expect(JSON.parse(listed.stdout)).toMatchObject({ armed: [], fired: { count: 1, by_fault: { HTTP_503: 1 } } });
    expect((await runFault("list")).stdout).toMatch(
      /fired: 1 \(HTTP_503 1\)\n {2}\S+ HTTP_503 GET \/cms\/api\/v1\/customer\/list\n/,
    );
    expect(await listCustomers()).toBe(200);
  });

  it("clears the plan", async () => {
    await runFault("add", "--operation", "*", "--fault", "HTTP_500", "--times", "5");
    const cleared = await runFault("clear");
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toMatch(/^cleared: 1 disarmed, \d+ fired forgotten\n$/);
    expect(await listCustomers()).toBe(200);
  });

  it("exits 2 with the sandbox's field error when the plan is refused", async () => {
    const refused = await runFault("add", "--operation", "initiatePayout", "--fault", "RESETS");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("INPUT_MALFORMED");
    expect(refused.stderr).toMatch(/\n {2}fault: /);
  });

  it("exits 2 for an action it does not know", async () => {
    const unknown = await runFault("arm");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('fault takes add, list or clear, not "arm"');
  });

  it("names the sandbox's URL when it cannot reach it", async () => {
    const captured = run(["fault", "list"], { ...env, EXCHANGE_BASE_URL: "http://127.0.0.1:9" });
    expect(await captured.code).toBe(1);
    expect(captured.stderr()).toContain("cannot reach the sandbox at http://127.0.0.1:9");
  });

  it("names in its help every fault kind the sandbox has", () => {
    for (const kind of [...REQUEST_FAULTS, ...WEBHOOK_FAULTS]) expect(fault.usage).toContain(kind);
  });
});

describe("fault add's flags", () => {
  it.each([
    [
      { operation: "getPayout", fault: "DELAY", "delay-ms": "250" },
      { operation: "getPayout", fault: "DELAY", delay_ms: 250 },
    ],
    [
      { "event-type": "PAYOUT", fault: "OUT_OF_ORDER", times: "3" },
      { event_type: "PAYOUT", fault: "OUT_OF_ORDER", times: 3 },
    ],
    [
      { operation: "getPayout", fault: "HTTP_429", "retry-after": "2" },
      { operation: "getPayout", fault: "HTTP_429", retry_after: 2 },
    ],
    [{ operation: "getPayout", fault: "RESET", times: "two" }, '--times must be a whole number, got "two"'],
    [{ operation: "getPayout" }, "--fault is required: the kind of fault to arm"],
  ])("%j reads as %j", (values, expected) => {
    expect(read(() => faultBody(values))).toEqual(expected);
  });
});

describe("sandbox --chaos", () => {
  it.each([
    [{}, undefined],
    [
      { chaos: "0.05", "chaos-seed": "42" },
      { rate: 0.05, seed: 42 },
    ],
    [
      { chaos: "0.2", "chaos-faults": "http_500,RESET" },
      { rate: 0.2, faults: ["HTTP_500", "RESET"] },
    ],
    [
      { chaos: "1", "chaos-max-delay-ms": "50" },
      { rate: 1, maxDelayMs: 50 },
    ],
    [{ chaos: "5%" }, "--chaos must be a share of requests from 0 to 1 (0.05 is 5 %)"],
    [{ chaos: "1.5" }, "--chaos must be a share of requests from 0 to 1 (0.05 is 5 %)"],
    [{ chaos: "0.1", "chaos-seed": "-3" }, "--chaos-seed must be a whole number from 0 to 4294967295"],
    [{ chaos: "0.1", "chaos-faults": "HTTP_418" }, expect.stringContaining("unknown fault HTTP_418 in --chaos-faults")],
    [{ "chaos-seed": "42" }, "--chaos-seed needs --chaos RATE"],
  ])("%j reads as %j", (values, expected) => {
    expect(read(() => chaosFlags(values))).toEqual(expected);
  });

  it("says in the ready output what chaos does and the seed that replays it", async () => {
    const chaotic = run(["sandbox", "--port", "0", "--chaos", "0.05", "--chaos-seed", "42"], env);
    await chaotic.waitFor("chaos mode");
    chaotic.stop();
    expect(await chaotic.code).toBe(0);
    expect(chaotic.stdout()).toContain(chaosLine({ rate: 0.05, seed: 42 }));
    expect(chaosLine({ rate: 0.05, seed: 42 })).toBe(
      "chaos mode: a random fault on 5 % of requests and webhook events (seed 42; --chaos-seed 42 replays it)",
    );
  });

  it("puts the chaos rate and seed in the --json ready object", async () => {
    const chaotic = run(["sandbox", "--port", "0", "--json", "--chaos", "0.2", "--chaos-seed", "7"], env);
    const ready = JSON.parse((await chaotic.waitFor("\n")).split("\n")[0]!);
    chaotic.stop();
    await chaotic.code;
    expect(ready.chaos).toEqual({ rate: 0.2, seed: 7 });
  });
});
