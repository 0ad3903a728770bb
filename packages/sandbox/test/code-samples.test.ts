// Each TypeScript code sample of the reference (openapi/code-samples/generated, made from the spec's request
// examples by `pnpm generate`) runs against the sandbox and gets its data: the sample's source as the reference
// shows it, with the example's IDs replaced by those of records made for it and the client pointed at the
// sandbox. The samples are type-checked by the client's tests (generated/samples.ts).
import { readFileSync } from "node:fs";
import { createExchangeClient } from "@exchange-kit/client";
import { describe, expect, it } from "vitest";
import { CALLS, ID_MEMBERS, stateOf, type ExampleCall } from "./example-states.js";
import { Api, startSandbox } from "./helpers.js";

interface CodeSample {
  lang: string;
  label: string;
  source: string;
}
const SAMPLES: Record<string, CodeSample[]> = JSON.parse(
  readFileSync(new URL("../../../openapi/code-samples/generated/code-samples.json", import.meta.url), "utf8"),
);
const PRELUDE = 'import { createExchangeClient } from "@exchange-kit/client";';
const CLIENT = "const client = createExchangeClient();";

/** The example a sample was made from: its label ends with `(example)` when the operation has several. */
function callOf(operationId: string, label: string): ExampleCall {
  const named = /\(([^)]+)\)$/.exec(label)?.[1];
  const call = CALLS.find((c) => c.operationId === operationId && (named === undefined || c.example === named));
  if (!call) throw new Error(`no example for ${operationId} ${label}`);
  return call;
}

/** The example's ID values in its path and body (by name), which the sample must carry and the test replaces. */
function exampleIds(call: ExampleCall): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const values of [call.pathParams, call.body ?? {}]) {
    for (const [k, v] of Object.entries(values)) if (ID_MEMBERS.includes(k)) out.set(k, v);
  }
  return out;
}

const TYPESCRIPT = Object.entries(SAMPLES).flatMap(([operationId, list]) =>
  list.filter((s) => s.lang === "TypeScript").map((s) => [`${operationId}: ${s.label}`, operationId, s] as const),
);
const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
  ...args: string[]
) => (...a: unknown[]) => Promise<void>;

describe("the reference's code samples against the sandbox", () => {
  it("has a TypeScript and a curl sample for every request example", () => {
    const made = Object.entries(SAMPLES).flatMap(([id, list]) => list.map((s) => `${id} ${s.lang}`));
    for (const call of CALLS) {
      expect(made).toContain(`${call.operationId} TypeScript`);
      expect(made).toContain(`${call.operationId} curl`);
    }
    expect(TYPESCRIPT.length).toBe(CALLS.length);
  });

  it.each(TYPESCRIPT)("%s runs and returns the operation's data", async (_name, operationId, sample) => {
    expect(sample.source.startsWith(PRELUDE)).toBe(true);
    expect(sample.source).toContain(CLIENT);
    const sandbox = await startSandbox();
    const org = sandbox.organizations[0]!;
    const api = new Api(sandbox, org);
    const call = callOf(operationId, sample.label);
    const ids = await stateOf(call)(api);
    let body = sample.source.slice(sample.source.indexOf(CLIENT) + CLIENT.length);
    for (const [name, value] of exampleIds(call)) {
      if (ids[name] === undefined) continue;
      const literal = JSON.stringify(value);
      expect(body, `${name} ${literal} in the sample`).toContain(literal);
      body = body.split(literal).join(JSON.stringify(ids[name]));
    }
    const logged: unknown[] = [];
    const client = createExchangeClient({
      baseUrl: sandbox.url,
      apiKey: org.apiKey,
      apiSecret: org.apiSecret,
      maxRetries: 0,
    });
    await new AsyncFunction("client", "console", body)(client, { log: (value: unknown) => logged.push(value) });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toBeDefined();
  });
});
