import { describe, expect, it } from "vitest";
import { queueLoadFailure } from "../../src/schedule/queue-work.js";

describe("loading the job queue", () => {
  it.each([
    ["an ESM package that is not installed", "ERR_MODULE_NOT_FOUND"],
    ["a CommonJS package that is not installed", "MODULE_NOT_FOUND"],
  ])("says what to install for %s", (_what, code) => {
    const failure = queueLoadFailure(Object.assign(new Error("Cannot find package 'graphile-worker'"), { code }));
    expect((failure as Error).message).toMatch(
      /graphile-worker, which is not installed: npm install graphile-worker@\^0\.18$/,
    );
  });

  it("keeps any other failure as it is, so a broken install does not read as a missing one", () => {
    const broken = Object.assign(new SyntaxError("Unexpected token"), { code: undefined });
    expect(queueLoadFailure(broken)).toBe(broken);
  });
});
