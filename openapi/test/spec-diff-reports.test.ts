// The rules of round 3 of the spec as a contract (issue 26), one fixture each: an edit of the base fixture (after
// an optional edit of both sides, where the base lacks what the change needs), the lines the report must show, the
// rules reported (nothing else), and the exit code of `pnpm spec:diff`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffSpecs } from "../spec-diff/diff.ts";
import { exitCodeOf } from "../spec-diff/exit-code.ts";
import { markdownReport } from "../spec-diff/report.ts";
import { fixtures } from "./helpers.js";

const base = (): any => JSON.parse(readFileSync(join(fixtures, "spec-diff", "base.json"), "utf8"));
const body = (doc: any) => doc.paths["/customers"].post.requestBody.content["application/json"].schema;
const getCustomer = (doc: any) => doc.paths["/customers/{customer_id}"].get;
const customer = (doc: any) => doc.components.schemas.Customer;

interface ReportFixture {
  /** An edit of both documents before the change. */
  before?: (doc: any) => void;
  edit: (doc: any) => void;
  /** Every rule reported, in report order. */
  rules: string[];
  /** Lines the Markdown report must contain (table rows, headings, the verdict). */
  lines: string[];
  exitCode: 0 | 1;
}

const FIXTURES: Record<string, ReportFixture> = {
  "a changed default of a request member (breaking for clients that leave it out)": {
    before: (d) => (body(d).properties.country.default = "IND"),
    edit: (d) => (body(d).properties.country.default = "USA"),
    rules: ["default-changed"],
    lines: [
      "| default-changed | POST /customers request body: country | default IND -> USA: a request that leaves it out now gets USA |",
      "### Breaking",
    ],
    exitCode: 1,
  },
  "a default added to a request member (it documents an omission, breaks nobody)": {
    edit: (d) => (body(d).properties.country.default = "IND"),
    rules: ["default-changed"],
    lines: ["| default-changed | POST /customers request body: country | default added: IND |", "### Not breaking"],
    exitCode: 0,
  },
  "a changed default of a response member (an annotation: not breaking)": {
    before: (d) => (customer(d).properties.status.default = "UNVERIFIED"),
    edit: (d) => (customer(d).properties.status.default = "VERIFIED"),
    rules: ["default-changed"],
    lines: ["| default-changed | response schema Customer: status | default UNVERIFIED -> VERIFIED |"],
    exitCode: 0,
  },
  "a deprecated operation": {
    edit: (d) => (getCustomer(d).deprecated = true),
    rules: ["operation-deprecated"],
    lines: [
      "1 change, **0 breaking** for clients.",
      "| operation-deprecated | GET /customers/{customer_id} | operation deprecated |",
    ],
    exitCode: 0,
  },
  "a deprecated parameter": {
    edit: (d) => (getCustomer(d).parameters[1].deprecated = true),
    rules: ["parameter-deprecated"],
    lines: ["| parameter-deprecated | GET /customers/{customer_id} parameter query page | parameter deprecated |"],
    exitCode: 0,
  },
  "a deprecated schema property": {
    edit: (d) => (body(d).properties.email.deprecated = true),
    rules: ["schema-deprecated"],
    lines: ["| schema-deprecated | POST /customers request body: email | deprecated |"],
    exitCode: 0,
  },
  "a loosened request pattern: anchored alternatives": {
    before: (d) => (body(d).properties.reference.pattern = "^(A|B)$"),
    edit: (d) => (body(d).properties.reference.pattern = "^(A|B|C)$"),
    rules: ["pattern-loosened"],
    lines: [
      "| pattern-loosened | POST /customers request body: reference | pattern `^(A\\|B)$` -> `^(A\\|B\\|C)$`: accepts more strings |",
    ],
    exitCode: 0,
  },
  "a loosened request pattern: a length quantifier": {
    before: (d) => (body(d).properties.reference.pattern = "^[A-Z]{3}$"),
    edit: (d) => (body(d).properties.reference.pattern = "^[A-Z]{3,5}$"),
    rules: ["pattern-loosened"],
    lines: ["pattern `^[A-Z]{3}$` -> `^[A-Z]{3,5}$`: accepts more strings"],
    exitCode: 0,
  },
  "a loosened request pattern: a character class": {
    before: (d) => (body(d).properties.reference.pattern = "^[A-Z]+$"),
    edit: (d) => (body(d).properties.reference.pattern = "^[A-Z0-9]+$"),
    rules: ["pattern-loosened"],
    lines: ["pattern `^[A-Z]+$` -> `^[A-Z0-9]+$`: accepts more strings"],
    exitCode: 0,
  },
  "a tightened request pattern (breaking)": {
    before: (d) => (body(d).properties.reference.pattern = "^[A-Z0-9]{3,5}$"),
    edit: (d) => (body(d).properties.reference.pattern = "^[A-Z]{3}$"),
    rules: ["pattern-tightened"],
    lines: [
      "| pattern-tightened | POST /customers request body: reference | pattern `^[A-Z0-9]{3,5}$` -> `^[A-Z]{3}$`: accepts fewer strings |",
    ],
    exitCode: 1,
  },
  "a pattern added to a request member (breaking)": {
    edit: (d) => (body(d).properties.reference.pattern = "^[a-z]+$"),
    rules: ["pattern-tightened"],
    lines: ["pattern none -> `^[a-z]+$`: accepts fewer strings"],
    exitCode: 1,
  },
  "a request pattern changed beyond comparison (listed for review, not breaking)": {
    before: (d) => (body(d).properties.reference.pattern = "^[a-z]+$"),
    edit: (d) => (body(d).properties.reference.pattern = "^[a-z]+(-[a-z]+)*$"),
    rules: ["pattern-changed"],
    lines: [
      "1 change, **0 breaking** for clients, 1 to review.",
      "### To review (not classed breaking)",
      "pattern `^[a-z]+$` -> `^[a-z]+(-[a-z]+)*$`: cannot tell whether it accepts more or fewer strings: review |",
    ],
    exitCode: 0,
  },
  "a loosened response pattern (breaking: clients may read values they did not expect)": {
    before: (d) => (customer(d).properties.tags.items.pattern = "^[a-z]{3}$"),
    edit: (d) => (customer(d).properties.tags.items.pattern = "^[a-z]{2,4}$"),
    rules: ["pattern-loosened"],
    lines: [
      "| pattern-loosened | response schema Customer: tags[] | pattern `^[a-z]{3}$` -> `^[a-z]{2,4}$`: accepts more strings |",
    ],
    exitCode: 1,
  },
  "a tightened response pattern (not breaking)": {
    before: (d) => (customer(d).properties.tags.items.pattern = "^[a-z]{2,4}$"),
    edit: (d) => (customer(d).properties.tags.items.pattern = "^[a-z]{3}$"),
    rules: ["pattern-tightened"],
    lines: ["pattern `^[a-z]{2,4}$` -> `^[a-z]{3}$`: accepts fewer strings"],
    exitCode: 0,
  },
  "a removed security requirement (not breaking, under Security changes)": {
    edit: (d) => (getCustomer(d).security = [{ "X-API-KEY": [] }]),
    rules: ["security-loosened"],
    lines: [
      "1 change, **0 breaking** for clients, 1 security change.",
      "### Security changes",
      "| security-loosened | GET /customers/{customer_id} | security apiKey header X-API-KEY + apiKey header X-SIGNATURE -> apiKey header X-API-KEY (no client needs new credentials; fewer are checked) | no |",
    ],
    exitCode: 0,
  },
  "an operation made public (not breaking, under Security changes)": {
    edit: (d) => (getCustomer(d).security = []),
    rules: ["security-loosened"],
    lines: ["-> none (no client needs new credentials; fewer are checked) | no |"],
    exitCode: 0,
  },
  "an added security requirement (breaking, under Breaking and Security changes)": {
    before: (d) => (getCustomer(d).security = [{ "X-API-KEY": [] }]),
    edit: (d) => (getCustomer(d).security = [{ "X-API-KEY": [], "X-SIGNATURE": [] }]),
    rules: ["security-tightened"],
    lines: [
      "### Breaking",
      "| security-tightened | GET /customers/{customer_id} | security apiKey header X-API-KEY -> apiKey header X-API-KEY + apiKey header X-SIGNATURE (clients must send more credentials) |",
      "### Security changes",
      "| security-tightened | GET /customers/{customer_id} | security apiKey header X-API-KEY -> apiKey header X-API-KEY + apiKey header X-SIGNATURE (clients must send more credentials) | yes |",
    ],
    exitCode: 1,
  },
  "a renamed path parameter (a rename, not a moved path with a removed and an added parameter)": {
    edit: (d) => {
      d.paths["/customers/{customerId}"] = d.paths["/customers/{customer_id}"];
      delete d.paths["/customers/{customer_id}"];
      d.paths["/customers/{customerId}"].get.parameters[0].name = "customerId";
    },
    rules: ["path-parameter-renamed"],
    lines: [
      "| path-parameter-renamed | GET /customers/{customerId} parameter path customerId | renamed from customer_id: same request bytes; source-breaking for generated TypeScript (the path's key and the parameter's name in @exchange-kit/types change; the client's positional arguments do not) |",
    ],
    exitCode: 1,
  },
};

describe("round 3 rules: report lines and exit code, one fixture each", () => {
  it.each(Object.entries(FIXTURES))("reports %s", (_name, { before, edit, rules, lines, exitCode }) => {
    const original = base();
    before?.(original);
    const changed = structuredClone(original);
    edit(changed);
    const changes = diffSpecs(original, changed);
    expect(changes.map((c) => c.rule)).toEqual(rules);
    const report = markdownReport(changes);
    for (const line of lines) expect(report).toContain(line);
    expect(report).not.toContain("No change a client can notice.");
    expect(exitCodeOf(changes, { prMode: false })).toBe(exitCode);
  });
});
