import { describe, expect, it } from "vitest";
import { portFlag } from "../src/commands/flags.js";
import { autoProgressFlag, durabilityFlag, sandboxOptions } from "../src/commands/sandbox.js";
import { judgedAt, toleranceFlag } from "../src/commands/verify.js";
import { UsageError } from "../src/output.js";

/** The value a flag reader gives, or the message of the usage error it throws. */
function read<T>(reader: () => T): T | string {
  try {
    return reader();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return error.message;
  }
}

describe("--port", () => {
  const cases: Array<[string | undefined, number | string]> = [
    [undefined, 4010],
    ["0", 0],
    ["4020", 4020],
    ["65535", 65535],
    ["65536", "--port must be a port number"],
    ["-1", "--port must be a port number"],
    ["80.5", "--port must be a port number"],
    ["http", "--port must be a port number"],
  ];
  it.each(cases)("%s reads as %s", (value, expected) => {
    expect(read(() => portFlag(value, 4010))).toBe(expected);
  });
});

describe("--auto-progress", () => {
  const cases: Array<[string | undefined, number | false | undefined | string]> = [
    [undefined, undefined],
    ["off", false],
    ["0", 0],
    ["250", 250],
    ["-5", '--auto-progress must be milliseconds or "off"'],
    ["soon", '--auto-progress must be milliseconds or "off"'],
  ];
  it.each(cases)("%s reads as %s", (value, expected) => {
    expect(read(() => autoProgressFlag(value))).toBe(expected);
  });
});

describe("--db-durability", () => {
  const cases: Array<[string | undefined, string | undefined]> = [
    [undefined, undefined],
    ["normal", "normal"],
    ["full", "full"],
    ["sometimes", '--db-durability must be "normal" or "full"'],
  ];
  it.each(cases)("%s reads as %s", (value, expected) => {
    expect(read(() => durabilityFlag(value))).toBe(expected);
  });
});

describe("the sandbox's options from the command line", () => {
  const log = () => {};

  it("generates the organization when no credentials are given", () => {
    expect(sandboxOptions({}, {}, log)).toEqual({ port: 4020, host: "127.0.0.1", duplicateDeliveries: false });
  });

  it("puts the credentials given first, then each --org", () => {
    const values = { "api-key": "k", "api-secret": "s", org: ["k2:s2:Second: org"] as unknown as string };
    expect(sandboxOptions(values, {}, log).organizations).toEqual([
      { name: "Default organization", apiKey: "k", apiSecret: "s" },
      { apiKey: "k2", apiSecret: "s2", name: "Second: org" },
    ]);
  });

  it("reports the first bad flag in the order of the usage", () => {
    const values = { port: "x", "auto-progress": "soon", "db-durability": "sometimes" };
    expect(read(() => sandboxOptions(values, {}, log))).toBe("--port must be a port number");
  });

  it("logs through the given function with --verbose only", () => {
    expect(sandboxOptions({ verbose: true }, {}, log).logger).toEqual({ info: log, warn: log, error: log });
    expect(sandboxOptions({}, {}, log).logger).toBeUndefined();
  });

  it("passes each --webhook-allow target, repeated or comma-separated, to the sandbox", () => {
    const values = { host: "0.0.0.0", "webhook-allow": ["127.0.0.1:4000,hooks.internal", "10.0.0.5"] };
    expect(sandboxOptions(values as never, {}, log).webhookAllowedTargets).toEqual([
      "127.0.0.1:4000",
      "hooks.internal",
      "10.0.0.5",
    ]);
    expect(sandboxOptions({}, {}, log).webhookAllowedTargets).toBeUndefined();
  });
});

describe("--tolerance", () => {
  const cases: Array<[string | undefined, number | string]> = [
    [undefined, 300],
    ["0", 0],
    ["30.5", 30.5],
    ["-1", "--tolerance must be a number of seconds >= 0"],
    ["Infinity", "--tolerance must be a number of seconds >= 0"],
    ["later", "--tolerance must be a number of seconds >= 0"],
  ];
  it.each(cases)("%s reads as %s", (value, expected) => {
    expect(read(() => toleranceFlag(value))).toBe(expected);
  });
});

describe("the time a saved delivery is judged at", () => {
  const cases: Array<[Record<string, string>, boolean, number | undefined]> = [
    [{ "X-TIMESTAMP": "1700000000" }, true, 1700000000],
    [{ "x-timestamp": "1700000000" }, true, 1700000000],
    [{ "X-TIMESTAMP": "1700000000" }, false, undefined],
    [{ "X-TIMESTAMP": "soon" }, true, undefined],
    [{ "X-TIMESTAMP": "-1" }, true, undefined],
    [{}, true, undefined],
  ];
  it.each(cases)("%j with --at-delivery-time %s: %s (undefined is now)", (headers, atDeliveryTime, expected) => {
    expect(judgedAt(headers, atDeliveryTime)).toBe(expected);
  });
});
