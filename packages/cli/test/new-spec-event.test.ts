// Issue 14 asks that an event added to the spec need no edit outside openapi/ except the sandbox's state machine.
// This test makes that edit and no other: it copies the split spec (openapi/), adds the BANK event DEACTIVATED
// (its schema, its place in BankEvent's oneOf and discriminator, and the status in BankAccountStatus), bundles
// the copy with the Redocly CLI as the openapi build does, and runs the catalog generator of @exchange-kit/types
// on the bundle, as `pnpm generate` does. Then the packages run as built, unchanged, with the regenerated catalog
// in place of the one @exchange-kit/types ships (a Node resolve hook in a child process, test/support/
// new-event-probe.ts): webhook-verify, the cli and the sandbox each take the new event. A package that kept a
// list of its own would refuse it and fail here. The same probe with the shipped catalog shows each of them
// refusing it, so what changed their answers is the catalog alone.
//
// The edit left is the sandbox's state machine (src/domain/transitions.ts): the bank account moves to
// DEACTIVATED, but no move emits the event until the state machine says which one does.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const openapi = fileURLToPath(new URL("../../../openapi/", import.meta.url));
const typesEntry = new URL("../../types/dist/index.js", import.meta.url).href;
const generator = new URL("../../types/scripts/catalog.ts", import.meta.url).href;
const probe = fileURLToPath(new URL("./support/new-event-probe.ts", import.meta.url));

interface Report {
  webhook: { known: boolean; type: string; event: string; metadata: object; unknownReason?: string };
  webhookWithOtherReason: { known: boolean; unknownReason?: string };
  usage: string;
  trigger: { code: number; stdout: string; stderr: string };
  controlApi: { status: boolean; err_code?: string; data: { record?: { bank_account_status: string } } };
}

/** Replaces `from` by `to` in a file of the copied spec; throws when `from` is not there (the spec moved on). */
function edit(dir: string, file: string, from: string, to: string): void {
  const path = join(dir, file);
  const text = readFileSync(path, "utf8");
  if (!text.includes(from)) throw new Error(`${file} no longer contains ${JSON.stringify(from)}: update this test`);
  writeFileSync(path, text.replace(from, to));
}

/** The split spec with the BANK event DEACTIVATED added, bundled to JSON. */
async function specWithNewEvent(dir: string): Promise<unknown> {
  const spec = join(dir, "spec");
  for (const part of ["openapi.yaml", "paths", "components", "webhooks"]) {
    cpSync(join(openapi, part), join(spec, part), { recursive: true });
  }
  writeFileSync(
    join(spec, "components/schemas/BankDeactivatedEvent.yaml"),
    `type: object
title: BankDeactivatedEvent
description: BANK event DEACTIVATED, the bank account can no longer be used for orders.
allOf:
  - $ref: ./WebhookEventBase.yaml
required: [type, id, event, timestamp, metadata]
properties:
  type:
    type: string
    const: BANK
    description: Always BANK.
  event:
    type: string
    const: DEACTIVATED
    description: Always DEACTIVATED.
  metadata:
    type: object
    description: Why the account was deactivated.
    additionalProperties: true
    required: [reason]
    properties:
      reason:
        type: string
        description: Why the account was deactivated.
        enum: [Closed by the bank, Requested by the customer]
`,
  );
  const schemas = "components/schemas/";
  edit(
    spec,
    `${schemas}BankEvent.yaml`,
    "  - $ref: ./BankFailedEvent.yaml\n",
    "$&  - $ref: ./BankDeactivatedEvent.yaml\n",
  );
  edit(
    spec,
    `${schemas}BankEvent.yaml`,
    "    FAILED: ./BankFailedEvent.yaml",
    "$&\n    DEACTIVATED: ./BankDeactivatedEvent.yaml",
  );
  edit(spec, `${schemas}BankAccountStatus.yaml`, "MANUAL_REVIEW]", "MANUAL_REVIEW, DEACTIVATED]");
  const redocly = createRequire(join(openapi, "package.json")).resolve("@redocly/cli/bin/cli.js");
  const bundled = join(dir, "openapi.json");
  await run(process.execPath, [redocly, "bundle", join(spec, "openapi.yaml"), "-o", bundled, "--ext", "json"], {
    cwd: dir,
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
  });
  return JSON.parse(readFileSync(bundled, "utf8"));
}

/**
 * Writes the catalog generated from `spec` and a resolve hook that makes `@exchange-kit/types` the built package
 * with that catalog in place of its own; returns the hook's URL for `node --import`.
 */
async function regeneratedTypes(dir: string, spec: unknown): Promise<string> {
  const { generateCatalog } = (await import(generator)) as { generateCatalog: (spec: unknown) => string };
  const catalog = generateCatalog(spec);
  writeFileSync(join(dir, "catalog.ts"), catalog);
  const names = [...catalog.matchAll(/^export const (\w+)/gm)].map((m) => m[1]);
  writeFileSync(
    join(dir, "types.mjs"),
    `export * from ${JSON.stringify(typesEntry)};\nexport { ${names.join(", ")} } from "./catalog.ts";\n`,
  );
  writeFileSync(
    join(dir, "hook.mjs"),
    `import { registerHooks } from "node:module";
const types = new URL("./types.mjs", import.meta.url).href;
registerHooks({
  resolve: (specifier, context, next) =>
    specifier === "@exchange-kit/types" ? { url: types, shortCircuit: true } : next(specifier, context),
});
`,
  );
  return pathToFileURL(join(dir, "hook.mjs")).href;
}

async function runProbe(hook?: string): Promise<Report> {
  const args = [...(hook ? ["--import", hook] : []), "--disable-warning=ExperimentalWarning", probe];
  const { stdout } = await run(process.execPath, args, { cwd: join(openapi, "..") });
  return JSON.parse(stdout) as Report;
}

let dir: string;
let regenerated: Report;
let shipped: Report;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "exchange-kit-new-event-"));
  const hook = await regeneratedTypes(dir, await specWithNewEvent(dir));
  [regenerated, shipped] = await Promise.all([runProbe(hook), runProbe()]);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("an event added to the spec, with the catalog regenerated and no package edited", () => {
  it("is a known event to webhook-verify, its metadata checked against the spec's values", () => {
    expect(regenerated.webhook).toMatchObject({
      known: true,
      type: "BANK",
      event: "DEACTIVATED",
      metadata: { reason: "Closed by the bank" },
    });
    expect(regenerated.webhookWithOtherReason.unknownReason).toBe(
      'BANK DEACTIVATED: metadata.reason must be one of Closed by the bank, Requested by the customer, got "Because"',
    );
  });

  it("is listed by exchange-kit trigger, with the reasons it takes", () => {
    expect(regenerated.usage).toContain(
      'BANK: VERIFIED, FAILED (--failure-reason ACCOUNT_TYPE_NRE|PENNY_DROP_FAILED|NAME_MISMATCH|BANK_RISK_CHECK_FAILED), DEACTIVATED (--reason "Closed by the bank"|"Requested by the customer")',
    );
  });

  it("is triggered by exchange-kit trigger, and the sandbox moves the bank account to the new status", () => {
    expect(regenerated.trigger).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(regenerated.trigger.stdout).record).toMatchObject({ bank_account_status: "DEACTIVATED" });
    expect(regenerated.controlApi).toMatchObject({
      status: true,
      data: { record: { bank_account_status: "DEACTIVATED" } },
    });
  });
});

describe("the same event with the catalog @exchange-kit/types ships (the control)", () => {
  it("is unknown to webhook-verify", () => {
    expect(shipped.webhook).toMatchObject({
      known: false,
      unknownReason: "BANK event DEACTIVATED is not in the catalog",
    });
  });

  it("is neither listed nor triggered by exchange-kit trigger", () => {
    expect(shipped.usage).not.toContain("DEACTIVATED");
    expect(shipped.trigger.code).toBe(2);
    expect(JSON.parse(shipped.trigger.stderr).message).toContain('BANK has no event "DEACTIVATED"');
  });

  it("is a status the sandbox's control API refuses", () => {
    expect(shipped.controlApi).toMatchObject({ status: false, err_code: "INPUT_MALFORMED" });
  });
});
