import { describe, expectTypeOf, it } from "vitest";
import type * as Web from "../src/index.js";
import type * as Node from "../src/node.js";

// Type-level tests: vitest's typecheck mode runs them through tsc, never executes them.
declare const web: typeof Web;
declare const node: typeof Node;
const credentials = { apiKey: "k", apiSecret: "s" };

describe("the public types", () => {
  it("type a request without a body as having no body and no Content-Type", () => {
    expectTypeOf(web.signRequest({ ...credentials })).resolves.toEqualTypeOf<Web.SignedRequestWithoutBody>();
    expectTypeOf<Web.SignedRequestWithoutBody["headers"]>().not.toHaveProperty("Content-Type");
  });

  it("type a request with a body as having a string body and a Content-Type", () => {
    expectTypeOf(
      web.signRequest({ ...credentials, body: { a: 1 } }),
    ).resolves.toEqualTypeOf<Web.SignedRequestWithBody>();
    expectTypeOf<Web.SignedRequestWithBody["body"]>().toEqualTypeOf<string>();
    expectTypeOf<Web.SignedRequestWithBody["headers"]>().toHaveProperty("Content-Type");
  });

  it("type a body that may be undefined as either kind of request", () => {
    const body = undefined as { a: number } | undefined;
    expectTypeOf(web.signRequest({ ...credentials, body })).resolves.toEqualTypeOf<Web.SignedRequest>();
  });

  it("give the web entry no synchronous variants", () => {
    expectTypeOf(web).not.toHaveProperty("signRequestSync");
    expectTypeOf(node.signRequestSync({ ...credentials })).toEqualTypeOf<Node.SignedRequestWithoutBody>();
  });

  it("give both entries the same asynchronous functions", () => {
    expectTypeOf(node.signRequest).toEqualTypeOf(web.signRequest);
    expectTypeOf(node.verifySignature).toEqualTypeOf(web.verifySignature);
    expectTypeOf(node.computeSignature).toEqualTypeOf(web.computeSignature);
  });
});
