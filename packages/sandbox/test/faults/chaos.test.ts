// Chaos mode: the seeded generator (checked against an independent implementation's outputs), the pure pick,
// and over real HTTP the same seed failing the same requests the same way.
import { describe, expect, it } from "vitest";
import { chaosOptionProblems, chaosPick } from "../../src/faults/chaos.js";
import { mulberry32 } from "../../src/faults/prng.js";
import { Api, startSandbox } from "../helpers.js";

describe("mulberry32", () => {
  // The expected values come from a separate implementation (Python, 32-bit arithmetic written out).
  it.each([
    [0, [0.26642920868471265, 0.0003297457005828619, 0.2232720274478197]],
    [1, [0.6270739405881613, 0.002735721180215478, 0.5274470399599522]],
    [42, [0.6011037519201636, 0.44829055899754167, 0.8524657934904099]],
    [4294967295, [0.8964226141106337, 0.189478256739676, 0.7156526781618595]],
  ])("seed %i starts with the reference sequence", (seed, expected) => {
    const next = mulberry32(seed);
    expect([next(), next(), next()]).toEqual(expected);
  });
});

describe("chaosPick", () => {
  const kinds = ["HTTP_500", "DELAY", "RESET", "DROP_AFTER_COMMIT"] as const;
  it.each([
    ["a roll at the rate is no fault", [0.05, 0.1, 0.1], undefined],
    ["a roll under the rate picks by the second draw", [0.049, 0.1, 0.9], { kind: "HTTP_500", delayMs: 0 }],
    ["the last kind at a draw near 1", [0, 0.999999, 0], { kind: "DROP_AFTER_COMMIT", delayMs: 0 }],
    ["DELAY waits by the third draw", [0, 0.3, 0.5], { kind: "DELAY", delayMs: 251 }],
    ["DELAY waits at least 1 ms", [0, 0.3, 0], { kind: "DELAY", delayMs: 1 }],
    ["DELAY waits at most the bound", [0, 0.3, 0.999999999], { kind: "DELAY", delayMs: 500 }],
  ] as const)("%s", (_case, draws, expected) => {
    expect(chaosPick(draws, 0.05, kinds, 500)).toEqual(expected);
  });

  it("never picks with a rate of 0", () => {
    expect(chaosPick([0, 0, 0], 0, kinds, 500)).toBeUndefined();
  });
});

describe("chaos options", () => {
  it.each([
    [{ rate: 1.5, seed: 1 }, "chaos.rate"],
    [{ rate: 0.1, seed: -1 }, "chaos.seed"],
    [{ rate: 0.1, seed: 2 ** 32 }, "chaos.seed"],
    [{ rate: 0.1, seed: 1, faults: ["HTTP_418"] }, "chaos.faults"],
    [{ rate: 0.1, seed: 1, faults: [] }, "chaos.faults"],
    [{ rate: 0.1, seed: 1, maxDelayMs: 0 }, "chaos.maxDelayMs"],
  ] as const)("refuses %j, naming %s", (options, name) => {
    expect(chaosOptionProblems(options as never).join()).toContain(name);
  });

  it("makes createSandbox reject with a TypeError naming the option", async () => {
    await expect(startSandbox({ chaos: { rate: 2 } })).rejects.toThrow(/chaos\.rate/);
  });
});

describe("chaos mode", () => {
  async function statuses(seed: number): Promise<number[]> {
    const sandbox = await startSandbox({
      chaos: { rate: 0.5, seed, faults: ["HTTP_429", "HTTP_500", "HTTP_503", "NET_TIMEOUT"] },
    });
    const api = new Api(sandbox);
    const seen: number[] = [];
    for (let i = 0; i < 24; i++) seen.push((await api.get("/cms/api/v1/customer/list")).status);
    await sandbox.close();
    return seen;
  }

  it("fails the same requests the same way for the same seed, and differently for another", async () => {
    const first = await statuses(42);
    expect(await statuses(42)).toEqual(first);
    expect(await statuses(43)).not.toEqual(first);
    expect(first.filter((s) => s !== 200).length).toBeGreaterThan(0);
  });

  it("records every fault it fires in the fault log, by kind, and tells its seed", async () => {
    const sandbox = await startSandbox({ chaos: { rate: 1, seed: 7, faults: ["HTTP_503"] } });
    const api = new Api(sandbox);
    expect(sandbox.chaos).toEqual({ rate: 1, seed: 7 });
    for (let i = 0; i < 3; i++) expect((await api.get("/cms/api/v1/customer/list")).status).toBe(503);
    const { fired, armed } = await api.ok("GET", "/_sandbox/faults");
    expect(armed).toEqual([]);
    expect(fired.by_fault).toEqual({ HTTP_503: 3 });
    expect(fired.results[0]).toMatchObject({ source: "chaos", rule_id: null, operation: "listCustomers" });
  });

  it("picks a seed when none is given, and tells it", async () => {
    const sandbox = await startSandbox({ chaos: { rate: 0.1 } });
    expect(sandbox.chaos?.seed).toEqual(expect.any(Number));
  });

  it("lets an armed rule take precedence over chaos without shifting chaos's sequence", async () => {
    const plain = await statuses(42);
    const sandbox = await startSandbox({
      chaos: { rate: 0.5, seed: 42, faults: ["HTTP_429", "HTTP_500", "HTTP_503", "NET_TIMEOUT"] },
    });
    const api = new Api(sandbox);
    await api.ok("POST", "/_sandbox/faults", { operation: "listCustomers", fault: "UNKNOWN_ERROR" });
    const seen: number[] = [];
    for (let i = 0; i < 24; i++) seen.push((await api.get("/cms/api/v1/customer/list")).status);
    expect(seen[0]).toBe(400);
    expect(seen.slice(1)).toEqual(plain.slice(1));
  });
});
