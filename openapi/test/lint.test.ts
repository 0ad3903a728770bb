import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeProblems, fixtures, lint, redocly, repoRoot, specRoot, type LintProblem } from "./helpers.js";

const brokenRoot = join(fixtures, "broken", "openapi.yaml");
const validRoot = join(fixtures, "valid", "openapi.yaml");
const ours = (p: LintProblem) => p.ruleId.startsWith("exchange-kit/");
const where = (p: LintProblem) => {
  const at = p.location[0];
  // Sources are reported relative to the working directory (the repo root); keep the part under fixtures/.
  return at ? `${at.source.ref.replace(/^.*fixtures\//, "")}${at.pointer}` : "(no location)";
};

describe("custom lint rules on the broken fixture", () => {
  const report = lint(brokenRoot);
  const found = report.problems.map((p) => `${p.ruleId} @ ${where(p)}`);

  // Every problem the exchange-kit rules must report, and nothing else from them (no false positives).
  const expected = [
    // 1. operationId, exactly one declared tag, summary, the three signing schemes
    "exchange-kit/operation-conventions @ broken/openapi.yaml#/paths/~1customers/post", // no operationId
    "exchange-kit/operation-conventions @ broken/openapi.yaml#/paths/~1customers/post", // no summary
    "exchange-kit/operation-conventions @ broken/openapi.yaml#/paths/~1customers~1{customer_id}/get/tags",
    "exchange-kit/operation-conventions @ broken/openapi.yaml#/paths/~1customers~1{customer_id}/get/security",
    "exchange-kit/operation-conventions @ broken/openapi.yaml#/paths/~1customers~1{customer_id}~1delete/delete/tags/0",
    "exchange-kit/operation-conventions @ broken/openapi.yaml#/webhooks/CUSTOMER/post/security",
    // 2. 2xx is the success envelope
    "exchange-kit/success-envelope @ broken/openapi.yaml#/paths/~1customers/post/responses/200/content/application~1json/schema",
    "exchange-kit/success-envelope @ broken/openapi.yaml#/paths/~1customers~1{customer_id}/get/responses/200/content/application~1json/schema",
    "exchange-kit/success-envelope @ broken/openapi.yaml#/paths/~1customers~1{customer_id}~1delete/delete/responses/202",
    // 3. 4xx/5xx is the error envelope (a shared response file referenced twice: reported once, in that file)
    "exchange-kit/error-envelope @ broken/components/BrokenError.yaml#/content/application~1json/schema",
    "exchange-kit/error-envelope @ broken/openapi.yaml#/paths/~1customers~1{customer_id}/get/responses/404/content/application~1json/schema",
    // 4. every property has a description
    "exchange-kit/property-description @ broken/openapi.yaml#/components/schemas/Customer/properties/full_name",
    "exchange-kit/property-description @ broken/openapi.yaml#/components/schemas/Customer/properties/nickname",
    // optional: 400 narrows err_code with an enum
    "exchange-kit/err-code-enum @ broken/openapi.yaml#/paths/~1customers/post/responses/400/content/application~1json/schema",
    "exchange-kit/err-code-enum @ broken/openapi.yaml#/paths/~1customers~1{customer_id}/get/responses/400/content/application~1json/schema",
  ];

  it("reports exactly the expected exchange-kit problems, as errors", () => {
    const ourProblems = report.problems.filter(ours);
    expect(ourProblems.map((p) => `${p.ruleId} @ ${where(p)}`).sort(), describeProblems(ourProblems)).toEqual(
      [...expected].sort(),
    );
    for (const p of ourProblems) expect(p.severity).toBe("error");
  });

  it.each([
    "exchange-kit/operation-conventions",
    "exchange-kit/success-envelope",
    "exchange-kit/error-envelope",
    "exchange-kit/property-description",
    "exchange-kit/err-code-enum",
  ])("%s fires", (ruleId) => {
    expect(report.problems.some((p) => p.ruleId === ruleId)).toBe(true);
  });

  it("names what is missing", () => {
    const messages = report.problems.filter(ours).map((p) => p.message);
    expect(messages).toContain("Operation must have a non-empty `operationId`.");
    expect(messages).toContain("Operation must have a non-empty `summary`.");
    expect(messages).toContain("Operation must have exactly one tag (has 2).");
    expect(messages.some((m) => m.startsWith("Tag `Undeclared` is not declared"))).toBe(true);
    expect(messages.some((m) => /security must require .*missing: X-TIMESTAMP, X-SIGNATURE/.test(m))).toBe(true);
  });

  it.each([
    [
      "no-invalid-media-type-examples",
      "broken/openapi.yaml#/paths/~1customers/post/requestBody/content/application~1json/examples/bad/value/full_name",
    ],
    [
      "no-invalid-schema-examples",
      "broken/openapi.yaml#/components/schemas/NewCustomer/properties/full_name/examples/0",
    ],
    ["no-invalid-parameter-examples", "broken/openapi.yaml#/paths/~1customers~1{customer_id}/get/parameters/0/example"],
  ])("example rule %s fires as an error", (ruleId, location) => {
    expect(found).toContain(`${ruleId} @ ${location}`);
    expect(report.problems.filter((p) => p.ruleId === ruleId).every((p) => p.severity === "error")).toBe(true);
  });
});

describe("the valid fixture", () => {
  it("lints with zero problems (no rule fires on conforming shapes)", () => {
    const report = lint(validRoot);
    expect(describeProblems(report.problems)).toBe("");
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});

describe("rule options are read from the config", () => {
  const dir = mkdtempSync(join(tmpdir(), "exchange-kit-lint-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("turning off the webhook exemption and the remittance alternative makes them fire", () => {
    const config = join(dir, "redocly.yaml");
    writeFileSync(
      config,
      [
        "plugins:",
        `  - ${JSON.stringify(join(repoRoot, "openapi", "rules", "plugin.js"))}`,
        "rules:",
        "  exchange-kit/operation-conventions:",
        "    severity: error",
        "    exemptWebhooksWithEmptySecurity: false",
        "  exchange-kit/error-envelope:",
        "    severity: warn",
        "    envelope: ErrorEnvelope",
        "    alternatives: []",
        "  exchange-kit/err-code-enum: off",
        "",
      ].join("\n"),
    );
    const report = lint(validRoot, config);
    const found = report.problems.map((p) => `${p.ruleId} ${p.severity} @ ${where(p)}`);
    expect(found.sort(), describeProblems(report.problems)).toEqual(
      [
        "exchange-kit/operation-conventions error @ valid/openapi.yaml#/webhooks/CUSTOMER/post/security",
        "exchange-kit/error-envelope warn @ valid/paths/remittance-quotation.yaml#/post/responses/400/content/application~1json/schema",
      ].sort(),
    );
  });
});

describe("the real spec", () => {
  it("lints with zero errors and zero warnings under redocly.yaml", () => {
    const report = lint(specRoot);
    expect(describeProblems(report.problems)).toBe("");
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("works with --format=github-actions (PR annotations)", () => {
    const run = redocly(["lint", `--config=${join(repoRoot, "redocly.yaml")}`, "--format=github-actions", validRoot]);
    expect(run.status, run.stderr).toBe(0);
    const broken = redocly([
      "lint",
      `--config=${join(repoRoot, "redocly.yaml")}`,
      "--format=github-actions",
      "--max-problems=10000",
      brokenRoot,
    ]);
    expect(broken.status).toBe(1);
    expect(broken.stdout).toMatch(
      /^::error title=exchange-kit\/success-envelope,file=.*broken\/openapi\.yaml,line=\d+/m,
    );
  });
});
