import { describe, expect, it } from "vitest";
import { run } from "./run.js";

describe("exchange-kit demo", () => {
  it("runs the whole integration against the embedded sandbox and exits 0 with every step ok", async () => {
    const cli = run(["demo", "--json"]);
    const code = await cli.code;
    const lines = cli
      .stdout()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const failed = lines.filter((l) => l.ok === false);
    expect(failed, cli.stdout()).toEqual([]);
    expect(code).toBe(0);
    const steps = lines.filter((l) => l.step !== undefined).map((l) => l.step);
    for (const expected of [
      "create customer",
      "receive CUSTOMER VERIFIED (signed webhook)",
      "receive BANK VERIFIED (signed webhook)",
      "receive PAYIN SUCCESS (signed webhook)",
      "receive PAYOUT SUCCESS (signed webhook)",
      "redeliver PAYOUT SUCCESS: answered 200, handled once",
      "page through the payin history (per_page 10)",
    ]) {
      expect(steps).toContain(expected);
    }
    expect(lines.at(-1)).toMatchObject({ ok: true });
  });
});
