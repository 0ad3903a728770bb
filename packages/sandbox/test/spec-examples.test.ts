// Every request example of the spec, sent to the sandbox in a state where it applies, is answered 200. The IDs
// of an example (customer_id, bank_id, ...) are replaced by those of the records the state made; every other
// member is sent as the example has it. Operations without a body are called with their parameter examples and
// the query parameters the spec marks as the sandbox's (`x-sandbox-parameters`).
import { describe, expect, it } from "vitest";
import { CALLS, EXAMPLE_STATES, send, stateOf, STATES } from "./example-states.js";
import { Api, startSandbox } from "./helpers.js";

describe("the spec's request examples against the sandbox", () => {
  it("covers every operation of the spec", () => {
    const operations = new Set(CALLS.map((c) => c.operationId));
    const stated = new Set([...Object.keys(STATES), ...Object.keys(EXAMPLE_STATES).map((k) => k.split(" ")[0]!)]);
    expect([...operations].filter((id) => !stated.has(id))).toEqual([]);
    expect([...stated].filter((id) => !operations.has(id))).toEqual([]);
  });

  it.each(CALLS.map((c) => [`${c.operationId} ${c.example}`, c] as const))(
    "%s is answered 200",
    async (_name, call) => {
      const api = new Api(await startSandbox());
      const ids = await stateOf(call)(api);
      const res = await send(api, call.operationId, ids, call.example);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.status).toBe(true);
    },
  );
});
