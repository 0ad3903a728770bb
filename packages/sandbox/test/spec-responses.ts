// Every response a test receives is checked against the spec: the schema of the operation's response for that
// status (ajv on the bundled spec). Sandbox-only paths are checked against the spec's own components (Wallet,
// PaginatedList, the envelopes). A response that breaks the spec throws, so the test fails.
import { compile, type ValidateFunction } from "../src/spec/ajv.js";
import { operations, type JsonSchema } from "../src/spec/openapi.js";

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const success = (data: JsonSchema): JsonSchema => ({
  allOf: [ref("SuccessEnvelope"), { type: "object", properties: { data } }],
});

/** Schemas of the sandbox-only routes (not in the spec), built from the spec's components. */
const SANDBOX_ONLY: Array<{ method: string; pattern: RegExp; ok: JsonSchema }> = [
  { method: "POST", pattern: /^\/cms\/api\/v1\/customer\/wallet\/create$/, ok: success(ref("Wallet")) },
  {
    method: "GET",
    pattern: /^\/cms\/api\/v1\/customer\/wallet\/list\/[^/]+$/,
    ok: success({
      allOf: [ref("PaginatedList"), { properties: { results: { type: "array", items: ref("Wallet") } } }],
    }),
  },
  { method: "*", pattern: /^\/_sandbox\//, ok: ref("SuccessEnvelope") },
];

interface Matcher {
  method: string;
  regex: RegExp;
  operationId: string;
  responses: Record<string, JsonSchema | undefined>;
}

const matchers: Matcher[] = operations.map((op) => ({
  method: op.method,
  // Static segments first is how the server routes; here a literal match is tried before templated ones.
  regex: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  operationId: op.operationId,
  responses: Object.fromEntries(
    Object.entries(op.responses).map(([status, r]) => [status, r.content?.["application/json"]?.schema]),
  ),
}));
const templated = (m: Matcher) => m.regex.source.split("[^/]+").length - 1;
const literalFirst = [...matchers].sort((a, b) => templated(a) - templated(b));

const cache = new Map<string, ValidateFunction>();
function validator(key: string, schema: JsonSchema): ValidateFunction {
  let v = cache.get(key);
  if (!v) cache.set(key, (v = compile(schema)));
  return v;
}

export class SpecViolation extends Error {}

/** Which schema a response must match; throws SpecViolation when it does not. */
export function assertResponseMatchesSpec(method: string, path: string, status: number, body: unknown): string {
  const bare = path.split("?")[0]!;
  const sandboxOnly = SANDBOX_ONLY.find((s) => (s.method === "*" || s.method === method) && s.pattern.test(bare));
  const op = sandboxOnly ? undefined : literalFirst.find((m) => m.method === method && m.regex.test(bare));
  let key: string;
  let schema: JsonSchema;
  if (op?.responses[String(status)]) {
    key = `${op.operationId}:${status}`;
    schema = op.responses[String(status)]!;
  } else if (sandboxOnly && status === 200) {
    key = `sandbox:${sandboxOnly.pattern.source}`;
    schema = sandboxOnly.ok;
  } else if (status >= 400) {
    // Unknown paths, wrong methods, 413 and the control API's errors: the standard error envelope.
    key = "ErrorEnvelope";
    schema = ref("ErrorEnvelope");
  } else {
    throw new SpecViolation(`${method} ${bare} answered ${status}, which the spec does not declare for it`);
  }
  const validate = validator(key, schema);
  if (!validate(body)) {
    throw new SpecViolation(
      `${method} ${bare} ${status} breaks the spec (${key}): ${JSON.stringify(validate.errors, null, 1)}\nbody: ${JSON.stringify(body)}`,
    );
  }
  return key;
}

/** The schema of a webhook event type, to check every delivered event against the spec. */
export function assertEventMatchesSpec(event: { type: string }): void {
  const validate = validator(`webhook:${event.type}`, {
    $ref:
      "#/components/schemas/" +
      (
        {
          CUSTOMER: "CustomerEvent",
          BANK: "BankEvent",
          PAYIN: "PayinEvent",
          PAYOUT: "PayoutEvent",
          EDD: "EddEvent",
        } as Record<string, string>
      )[event.type]!,
  });
  if (!validate(event))
    throw new SpecViolation(`event breaks the spec: ${JSON.stringify(validate.errors)}\n${JSON.stringify(event)}`);
}
