import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { additionalInfoFor } from "../src/commands/demo/customer-steps.js";
import { createDemoReporter } from "../src/commands/demo/reporter.js";
import { runSteps } from "../src/commands/demo/runner.js";
import { type DemoState, type DemoStep, defineStep, ensure } from "../src/commands/demo/step.js";
import { DEMO_STEPS } from "../src/commands/demo/steps.js";
import { createOutput } from "../src/output.js";

/** A reporter writing to a captured, non-TTY stdout, in JSON or human mode. */
function capture(json: boolean) {
  const stdout = new PassThrough();
  let text = "";
  stdout.on("data", (c) => (text += String(c)));
  const out = createOutput({ stdout, stderr: new PassThrough(), env: {} }, json);
  return {
    reporter: createDemoReporter(out),
    text: () => text,
    lines: () =>
      text
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
  };
}

const state = () => ({ run: "test" }) as DemoState;
const ran: string[] = [];
const step = (name: string, detail: string, fail?: "action" | "check"): DemoStep =>
  defineStep({
    name,
    action: async () => {
      ran.push(name);
      if (fail === "action") throw new TypeError(`${name} refused`);
      return detail;
    },
    check: (value) => {
      ensure(fail !== "check", `${name} returned ${value}`);
      return value;
    },
  });

describe("the demo's steps", () => {
  it("run in order, each reported with its detail", async () => {
    ran.length = 0;
    const { reporter, lines } = capture(true);
    const outcome = await runSteps([step("one", "a"), step("two", "b")], state(), reporter);
    expect(outcome).toEqual({ steps: 2, failed: false });
    expect(ran).toEqual(["one", "two"]);
    expect(lines().map(({ step, ok, detail }) => ({ step, ok, detail }))).toEqual([
      { step: "one", ok: true, detail: "a" },
      { step: "two", ok: true, detail: "b" },
    ]);
  });

  it("stop at the first step whose action throws, reporting its error", async () => {
    ran.length = 0;
    const { reporter, lines } = capture(true);
    const outcome = await runSteps(
      [step("one", "a"), step("two", "b", "action"), step("three", "c")],
      state(),
      reporter,
    );
    expect(outcome).toEqual({ steps: 2, failed: true });
    expect(ran).toEqual(["one", "two"]);
    expect(lines()[1]).toMatchObject({ step: "two", ok: false, error: "TypeError: two refused" });
  });

  it("fail a step whose check finds the result wrong", async () => {
    const { reporter, lines } = capture(true);
    const outcome = await runSteps([step("one", "a", "check"), step("two", "b")], state(), reporter);
    expect(outcome).toEqual({ steps: 1, failed: true });
    expect(lines()).toEqual([expect.objectContaining({ step: "one", ok: false, error: "Error: one returned a" })]);
  });

  it("are twenty, each with a name of its own", () => {
    expect(DEMO_STEPS.map((s) => s.name)).toHaveLength(20);
    expect(new Set(DEMO_STEPS.map((s) => s.name)).size).toBe(20);
  });
});

describe("the demo's trace", () => {
  it("prints a passed step as a line with its time and detail", () => {
    const { reporter, text } = capture(false);
    reporter.passed("create customer", 12.4, "c1 UNVERIFIED");
    expect(text()).toBe(`✓ ${"create customer".padEnd(54)}    12 ms  c1 UNVERIFIED\n`);
  });

  it("prints the failed verdict with the number of the failing step, without the next steps", () => {
    const { reporter, text } = capture(false);
    reporter.finished({ failed: true, steps: 7, elapsedMs: 1234 });
    expect(text()).toBe("\nthe demo failed at step 7 (1.23 s)\n");
  });

  it("gives the verdict as one JSON object with --json", () => {
    const { reporter, lines } = capture(true);
    reporter.started();
    reporter.finished({ failed: false, steps: 20, elapsedMs: 2500 });
    expect(lines()).toEqual([{ ok: true, steps: 20, seconds: 2.5 }]);
  });
});

describe("the KYC additional_info the demo sends", () => {
  it.each([
    ["nothing when nothing is asked", {}, {}],
    [
      "every required field, even past min_required",
      { options: ["occupation", "annual_income"], occupation: { required: true }, annual_income: { required: true } },
      { occupation: "Software engineer", annual_income: "1200000" },
    ],
    [
      "required fields first, then others until min_required",
      {
        options: ["source_of_funds", "occupation", "other"],
        occupation: { required: true },
        rules: { min_required: 3 },
      },
      { occupation: "Software engineer", source_of_funds: "Salary", other: "Provided" },
    ],
    [
      "optional fields up to min_required",
      { options: ["occupation", "other"], rules: { min_required: 1 } },
      { occupation: "Software engineer" },
    ],
  ])("is %s", (_name, asked, sent) => {
    expect(additionalInfoFor({ additional_info_required: asked })).toEqual(sent);
  });
});
