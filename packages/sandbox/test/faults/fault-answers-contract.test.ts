// The failing faults answer every operation of the spec with a response its contract declares (status, envelope,
// err_code), so a client generated from the spec can read them: each answer is checked against the spec.
import { describe, expect, it } from "vitest";
import { operations } from "../../src/spec/openapi.js";
import { Api, startSandbox } from "../helpers.js";
import { arm } from "./fault-helpers.js";

const SOME_ID = "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b";

describe("failing faults against the spec", () => {
  it.each(["HTTP_429", "HTTP_500", "HTTP_503", "NET_TIMEOUT", "UNKNOWN_ERROR"])(
    "%s answers every operation with a response the spec declares for it",
    async (fault) => {
      const api = new Api(await startSandbox());
      await arm(api, { operation: "*", fault, times: operations.length });
      for (const op of operations) {
        const path = op.path.replace(/\{[^}]+\}/g, op.path.includes("wallet") ? "1001" : SOME_ID);
        // Api.request checks the answer against the operation's schema for its status, and throws if it breaks it.
        const res = await api.request(
          op.method,
          path,
          op.method === "GET" || op.method === "DELETE" ? {} : { body: {} },
        );
        expect(res.body.status).toBe(false);
      }
      expect((await api.ok("GET", "/_sandbox/faults")).fired.count).toBe(operations.length);
    },
  );
});
