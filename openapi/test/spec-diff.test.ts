import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { breakingBump, checkChangesets, newChangesets, parseChangeset } from "../spec-diff/changesets.ts";
import { diffSpecs } from "../spec-diff/diff.ts";
import { markdownReport } from "../spec-diff/report.ts";
import type { JsonObject } from "../spec-diff/types.ts";
import { fixtures, repoRoot } from "./helpers.js";

// The fixture: a small spec with a request body, a parameter, a response component (self-referencing), an
// enum on each side, a webhook and two security schemes. Each rule below is one edit of it.
const base = (): any => JSON.parse(readFileSync(join(fixtures, "spec-diff", "base.json"), "utf8"));
const body = (doc: any) => doc.paths["/customers"].post.requestBody.content["application/json"].schema;
const getCustomer = (doc: any) => doc.paths["/customers/{customer_id}"].get;
const customer = (doc: any) => doc.components.schemas.Customer;

interface Fixture {
  rule: string;
  breaking: boolean;
  /** An edit of the base fixture before the change, where the base lacks what the change needs. */
  before?: (doc: any) => void;
  edit: (doc: any) => void;
}

const FIXTURES: Record<string, Fixture> = {
  "a removed operation": {
    rule: "operation-removed",
    breaking: true,
    edit: (d) => delete d.paths["/customers/{customer_id}"],
  },
  "an added operation": {
    rule: "operation-added",
    breaking: false,
    edit: (d) =>
      (d.paths["/customers/list"] = {
        get: { operationId: "listCustomers", responses: { 200: { description: "ok" } } },
      }),
  },
  "an operation moved to another path": {
    rule: "path-changed",
    breaking: true,
    edit: (d) => {
      d.paths["/v2/customers"] = d.paths["/customers"];
      delete d.paths["/customers"];
    },
  },
  "a renamed operationId": {
    rule: "operation-id-changed",
    breaking: true,
    edit: (d) => (getCustomer(d).operationId = "fetchCustomer"),
  },
  "a removed parameter": { rule: "parameter-removed", breaking: true, edit: (d) => getCustomer(d).parameters.pop() },
  "a new required parameter": {
    rule: "parameter-added-required",
    breaking: true,
    edit: (d) =>
      getCustomer(d).parameters.push({ name: "org", in: "query", required: true, schema: { type: "string" } }),
  },
  "a new optional parameter": {
    rule: "parameter-added-optional",
    breaking: false,
    edit: (d) => getCustomer(d).parameters.push({ name: "sort", in: "query", schema: { type: "string" } }),
  },
  "a parameter that became required": {
    rule: "parameter-became-required",
    breaking: true,
    edit: (d) => (getCustomer(d).parameters[1].required = true),
  },
  "a removed request member": {
    rule: "request-member-removed",
    breaking: true,
    edit: (d) => delete body(d).properties.email,
  },
  "a new required request member": {
    rule: "request-member-added-required",
    breaking: true,
    edit: (d) => {
      body(d).properties.dob = { type: "string" };
      body(d).required.push("dob");
    },
  },
  "a new optional request member": {
    rule: "request-member-added-optional",
    breaking: false,
    edit: (d) => (body(d).properties.dob = { type: "string" }),
  },
  "a request member that became required": {
    rule: "request-member-became-required",
    breaking: true,
    edit: (d) => body(d).required.push("country"),
  },
  "a request member that became optional": {
    rule: "request-member-became-optional",
    breaking: false,
    edit: (d) => (body(d).required = []),
  },
  "a narrowed request enum": {
    rule: "request-enum-narrowed",
    breaking: true,
    edit: (d) => (body(d).properties.country.enum = ["IND", "USA"]),
  },
  "a widened request enum": {
    rule: "request-enum-widened",
    breaking: false,
    edit: (d) => body(d).properties.country.enum.push("MEX"),
  },
  "a widened response enum (flagged)": {
    rule: "response-enum-widened",
    breaking: true,
    edit: (d) => customer(d).properties.status.enum.push("FAILED"),
  },
  "a narrowed response enum": {
    rule: "response-enum-narrowed",
    breaking: false,
    edit: (d) => (customer(d).properties.status.enum = ["VERIFIED"]),
  },
  "a removed response member": {
    rule: "response-member-removed",
    breaking: true,
    edit: (d) => delete customer(d).properties.tags,
  },
  "a new response member": {
    rule: "response-member-added",
    breaking: false,
    edit: (d) => (customer(d).properties.email = { type: "string" }),
  },
  "a response member that may now be absent": {
    rule: "response-member-became-optional",
    breaking: true,
    edit: (d) => (customer(d).required = ["id"]),
  },
  "a nullable response member (a widened type)": {
    rule: "type-changed",
    breaking: true,
    edit: (d) => (customer(d).properties.id.type = ["string", "null"]),
  },
  "a request type that accepts less": {
    rule: "type-changed",
    breaking: true,
    edit: (d) => (body(d).properties.email.type = "integer"),
  },
  "a request type that accepts more": {
    rule: "type-changed",
    breaking: false,
    edit: (d) => (body(d).properties.email.type = ["string", "null"]),
  },
  "a format added to a request member": {
    rule: "format-changed",
    breaking: true,
    edit: (d) => (body(d).properties.email.format = "email"),
  },
  "a format removed from a response member": {
    rule: "format-changed",
    breaking: true,
    edit: (d) => delete customer(d).properties.id.format,
  },
  "a format removed from a parameter": {
    rule: "format-changed",
    breaking: false,
    edit: (d) => delete getCustomer(d).parameters[0].schema.format,
  },
  "a tightened request bound": {
    rule: "constraint-tightened",
    breaking: true,
    edit: (d) => (body(d).properties.reference.minLength = 3),
  },
  "a loosened request bound": {
    rule: "constraint-loosened",
    breaking: false,
    edit: (d) => delete body(d).properties.reference.minLength,
  },
  "a new rule on a request (dependentRequired)": {
    rule: "rule-changed",
    breaking: true,
    edit: (d) => (body(d).dependentRequired = { country: ["email"] }),
  },
  "a closed request object": {
    rule: "additional-members-changed",
    breaking: true,
    edit: (d) => (body(d).additionalProperties = false),
  },
  "a changed array item type in a response": {
    rule: "type-changed",
    breaking: true,
    edit: (d) => (customer(d).properties.tags.items.type = ["string", "integer"]),
  },
  "a new alternative in a response": {
    rule: "composition-changed",
    breaking: true,
    before: (d) => (d.components.schemas.CustomerEvent.anyOf = [{ required: ["id"] }]),
    edit: (d) => d.components.schemas.CustomerEvent.anyOf.push({ required: ["event"] }),
  },
  "a removed success response": {
    rule: "response-removed",
    breaking: true,
    edit: (d) => delete getCustomer(d).responses["200"],
  },
  "a removed error response": {
    rule: "response-removed",
    breaking: false,
    edit: (d) => delete d.paths["/customers"].post.responses["400"],
  },
  "a new response": {
    rule: "response-added",
    breaking: false,
    edit: (d) => (getCustomer(d).responses["404"] = { description: "none" }),
  },
  "a new required request body": {
    rule: "request-body-added-required",
    breaking: true,
    edit: (d) =>
      (getCustomer(d).requestBody = {
        required: true,
        content: { "application/json": { schema: { type: "object" } } },
      }),
  },
  "a removed request body": {
    rule: "request-body-removed",
    breaking: true,
    edit: (d) => delete d.paths["/customers"].post.requestBody,
  },
  "an operation that requires another credential": {
    rule: "security-changed",
    breaking: true,
    edit: (d) => {
      d.components.securitySchemes.Bearer = { type: "http", scheme: "bearer" };
      getCustomer(d).security = [{ Bearer: [] }];
    },
  },
  "a scheme that sends another header": {
    rule: "security-changed",
    breaking: true,
    edit: (d) => (d.components.securitySchemes["X-API-KEY"].name = "X-KEY"),
  },
  "a renamed scheme with the same header": {
    rule: "security-scheme-renamed",
    breaking: false,
    edit: (d) => {
      d.components.securitySchemes.ApiKey = d.components.securitySchemes["X-API-KEY"];
      delete d.components.securitySchemes["X-API-KEY"];
      d.security = [{ ApiKey: [], "X-SIGNATURE": [] }];
    },
  },
  "changed documented servers": {
    rule: "servers-changed",
    breaking: false,
    edit: (d) => (d.servers = [{ url: "{base_url}" }]),
  },
  "a removed webhook": { rule: "webhook-removed", breaking: true, edit: (d) => delete d.webhooks.CUSTOMER },
  "a new event value in a webhook body (flagged)": {
    rule: "response-enum-widened",
    breaking: true,
    edit: (d) => d.components.schemas.CustomerEvent.properties.event.enum.push("SUSPENDED"),
  },
};

describe("spec diff rules, one fixture each", () => {
  it.each(Object.entries(FIXTURES))("classes %s", (_name, { rule, breaking, before, edit }) => {
    const original = base();
    before?.(original);
    const changed = structuredClone(original);
    edit(changed);
    const changes = diffSpecs(original, changed);
    expect(changes.map((c) => [c.rule, c.breaking])).toContainEqual([rule, breaking]);
    // Nothing else in the fixture is reported as breaking when the rule itself is not.
    if (!breaking) expect(changes.filter((c) => c.breaking)).toEqual([]);
  });

  it("reports nothing for an unchanged spec, even with a self-referencing schema", () => {
    expect(diffSpecs(base(), base())).toEqual([]);
  });

  it("ignores descriptions, examples and x- extensions", () => {
    const changed = base();
    body(changed).description = "new words";
    body(changed)["x-sandbox-required"] = ["country"];
    customer(changed).examples = [{ id: "x", status: "VERIFIED" }];
    expect(diffSpecs(base(), changed)).toEqual([]);
  });

  it("reports a change inside a shared component once, under its name, not once per operation", () => {
    const changed = base();
    delete customer(changed).properties.tags;
    const removed = diffSpecs(base(), changed).filter((c) => c.rule === "response-member-removed");
    expect(removed).toEqual([expect.objectContaining({ where: "response schema Customer: tags" })]);
  });

  it("lists breaking changes first", () => {
    const changed = base();
    customer(changed).properties.email = { type: "string" };
    delete changed.paths["/customers/{customer_id}"];
    expect(diffSpecs(base(), changed).map((c) => c.breaking)).toEqual([true, false]);
  });
});

describe("the Markdown report", () => {
  it("gives the verdict, then a table of breaking and one of other changes", () => {
    const changed = base();
    delete changed.paths["/customers/{customer_id}"];
    customer(changed).properties.email = { type: "string" };
    const report = markdownReport(diffSpecs(base(), changed), { title: "Spec diff" });
    expect(report).toContain("2 changes, **1 breaking** for clients.");
    expect(report).toMatch(
      /### Breaking\n\n\| Rule \| Where \| Change \|\n\| - \| - \| - \|\n\| operation-removed \| GET \/customers\/\{customer_id\} \|/,
    );
    expect(report).toContain("### Not breaking");
  });
});

describe("changesets in PR mode", () => {
  it("needs a minor bump for a breaking change while 0.x, a major one from 1.0", () => {
    expect(breakingBump("0.4.2")).toBe("minor");
    expect(breakingBump("1.0.0")).toBe("major");
  });

  it("reads the bumps of a changeset front matter, quoted or not", () => {
    const text = '---\n"@exchange-kit/types": minor\n@exchange-kit/client: patch\n---\n\nWhy.\n';
    expect([...parseChangeset(text)]).toEqual([
      ["@exchange-kit/types", "minor"],
      ["@exchange-kit/client", "patch"],
    ]);
  });

  const work = mkdtempSync(join(tmpdir(), "spec-diff-git-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("counts only the changesets the branch adds, and fails a package whose bump is too small", () => {
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: work, stdio: "pipe" });
    git("init", "-q");
    for (const dir of ["packages/types", "packages/client", ".changeset"])
      execFileSync("mkdir", ["-p", join(work, dir)]);
    writeFileSync(join(work, "packages/types/package.json"), '{"version":"0.3.0"}');
    writeFileSync(join(work, "packages/client/package.json"), '{"version":"1.2.0"}');
    writeFileSync(join(work, ".changeset/old.md"), '---\n"@exchange-kit/client": major\n---\nold\n');
    git("add", "-A");
    git("commit", "-qm", "base");
    writeFileSync(
      join(work, ".changeset/new.md"),
      '---\n"@exchange-kit/types": minor\n"@exchange-kit/client": minor\n---\nnew\n',
    );
    const files = newChangesets(work, "HEAD");
    expect(files.map((f) => f.slice(work.length))).toEqual(["/.changeset/new.md"]);
    expect(checkChangesets(work, files)).toEqual([
      { name: "@exchange-kit/types", version: "0.3.0", needed: "minor", found: "minor", ok: true },
      { name: "@exchange-kit/client", version: "1.2.0", needed: "major", found: "minor", ok: false },
    ]);
  });
});

describe("pnpm spec:diff (the command)", () => {
  const work = mkdtempSync(join(tmpdir(), "spec-diff-cli-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(repoRoot, "openapi", "spec-diff", "cli.ts"), ...args], {
      cwd: repoRoot,
      encoding: "utf8",
      timeout: 60_000,
    });
  const write = (name: string, doc: JsonObject) => {
    const file = join(work, name);
    writeFileSync(file, JSON.stringify(doc));
    return file;
  };

  it("exits 0 for an unchanged spec (the real one)", () => {
    const run = cli(join(repoRoot, "openapi", "openapi.yaml"), join(repoRoot, "openapi", "openapi.yaml"));
    expect(run.stdout).toContain("No change a client can notice.");
    expect(run.status).toBe(0);
  });

  it("exits 1 for a removed operation and names it in the report", () => {
    const changed = base();
    delete changed.paths["/customers/{customer_id}"];
    const report = join(work, "report.md");
    const run = cli(write("old.json", base()), write("new.json", changed), "--report", report);
    expect(run.status).toBe(1);
    expect(readFileSync(report, "utf8")).toContain(
      "| operation-removed | GET /customers/{customer_id} | getCustomer removed |",
    );
  });

  it("exits 0 for changes that break no client", () => {
    const changed = base();
    customer(changed).properties.email = { type: "string" };
    expect(cli(write("old.json", base()), write("added.json", changed)).status).toBe(0);
  });

  it("exits 0 for a removed security requirement and lists it under Security changes", () => {
    const changed = base();
    getCustomer(changed).security = [{ "X-API-KEY": [] }];
    const run = cli(write("old.json", base()), write("less-security.json", changed));
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /### Security changes\n\n.*\n.*\n\| security-loosened \| GET \/customers\/\{customer_id\} \|/,
    );
  });

  it("exits 2 with a clear message for a file that is not a spec", () => {
    const run = cli(join(work, "missing.yaml"), join(work, "missing.yaml"));
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/cannot bundle/);
  });
});
