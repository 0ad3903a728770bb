// Every command's error paths as one table: a mistake in how a command is called is exit 2 with the usage, a
// failure at run time is exit 1 in one line, and each line says what to do (the flag to fix, the port to change,
// the name that was probably meant).
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "./run.js";

const env = { EXCHANGE_API_KEY: "ek_err_key", EXCHANGE_API_SECRET: "ek_err_secret" };
let holder: Server;
let taken: number;
let closed: number;

async function listening(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return server;
}

beforeAll(async () => {
  holder = await listening();
  taken = (holder.address() as AddressInfo).port;
  const probe = await listening();
  closed = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
});

afterAll(async () => {
  await new Promise((r) => holder.close(r));
});

/** Runs the command and answers its exit code and stderr; long-running commands are stopped once they start. */
async function attempt(argv: string[]): Promise<{ code: number; stderr: string }> {
  const cli = run(argv, env);
  const timer = setTimeout(() => cli.stop(), 20_000);
  const code = await cli.code.finally(() => clearTimeout(timer));
  return { code, stderr: cli.stderr() };
}

describe("usage errors: exit 2, the problem on the first line, then the usage", () => {
  const base = () => `http://127.0.0.1:${closed}`;
  it.each<[string, () => string[], RegExp]>([
    ["an unknown command", () => ["lgos"], /^error: unknown command "lgos"/],
    [
      "logs with a status class that does not exist",
      () => ["logs", "--status", "6xx", "--base-url", base()],
      /^error: --status takes an HTTP status \(100 to 599\) or a class such as 4xx, got "6xx"\n/,
    ],
    [
      "logs with a mistyped operationId",
      () => ["logs", "--operation-id", "createCustomr", "--base-url", base()],
      /^error: --operation-id: no operation "createCustomr"; did you mean "createCustomer"\?\n/,
    ],
    [
      "logs with an operationId nothing is close to",
      () => ["logs", "--operation-id", "zzzzzzzzzzzz", "--base-url", base()],
      /^error: --operation-id: no operation "zzzzzzzzzzzz"; it takes one of the spec's operationIds/,
    ],
    [
      "logs --events with a limit out of range",
      () => ["logs", "--events", "--limit", "0", "--base-url", base()],
      /^error: --limit must be from 1 to 1000\n/,
    ],
    [
      "logs with a since that is neither a time nor a duration",
      () => ["logs", "--since", "yesterday", "--base-url", base()],
      /^error: --since takes an ISO time/,
    ],
    [
      "fault add with a mistyped operationId",
      () => ["fault", "add", "--operation", "initiatePayot", "--fault", "HTTP_500", "--base-url", base()],
      /^error: --operation: no operation "initiatePayot"; did you mean "initiatePayout"\?\n/,
    ],
    [
      "fault add with a mistyped event type",
      () => ["fault", "add", "--event-type", "PAYOT", "--fault", "DUPLICATE_DELIVERY", "--base-url", base()],
      /^error: --event-type: no event type "PAYOT"; did you mean "PAYOUT"\?\n/,
    ],
    [
      "fault add with a count that is not a number",
      () => ["fault", "add", "--operation", "*", "--fault", "HTTP_500", "--times", "two", "--base-url", base()],
      /^error: --times must be a whole number, got "two"\n/,
    ],
    [
      "sandbox with a port out of range",
      () => ["sandbox", "--port", "70000"],
      /^error: --port must be a port number\n/,
    ],
    [
      "sandbox with an admin token too short, named by its flag",
      () => ["sandbox", "--port", "0", "--admin-token", "short"],
      /^error: --admin-token \(or EXCHANGE_KIT_SANDBOX_ADMIN_TOKEN\) must be at least 16 characters\n/,
    ],
    [
      "listen with a port that is not a number",
      () => ["listen", "--forward-to", "http://127.0.0.1:1/hooks", "--port", "abc", "--base-url", base()],
      /^error: --port must be a port number\n/,
    ],
  ])("%s", async (_name, argv, message) => {
    const { code, stderr } = await attempt(argv());
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain("exchange-kit ");
  });
});

describe("runtime failures: exit 1, one line that says what to do", () => {
  it.each<[string, () => string[], () => string]>([
    [
      "sandbox on a port another program holds",
      () => ["sandbox", "--port", String(taken)],
      () =>
        `error: port ${taken} on 127.0.0.1 is already in use: stop what holds it, or pick another port with --port (--port 0 picks a free one)\n`,
    ],
    [
      "proxy on a port another program holds",
      () => ["proxy", "--target", "http://127.0.0.1:1", "--port", String(taken)],
      () =>
        `error: port ${taken} on 127.0.0.1 is already in use: stop what holds it, or pick another port with --port (--port 0 picks a free one)\n`,
    ],
    [
      "listen on a port another program holds",
      () => ["listen", "--forward-to", "http://127.0.0.1:1/hooks", "--port", String(taken)],
      () =>
        `error: port ${taken} on 127.0.0.1 is already in use: stop what holds it, or pick another port with --port (--port 0 picks a free one)\n`,
    ],
    [
      "mock on a port another program holds",
      () => ["mock", "--port", String(taken)],
      () =>
        `error: port ${taken} on 127.0.0.1 is already in use: stop what holds it, or pick another port with --port (--port 0 picks a free one)\n`,
    ],
  ])("%s", async (_name, argv, line) => {
    const { code, stderr } = await attempt(argv());
    expect(code).toBe(1);
    expect(stderr).toBe(line());
  });

  it("logs against a sandbox that is not running names its URL, in one line", async () => {
    const { code, stderr } = await attempt(["logs", "--base-url", `http://127.0.0.1:${closed}`]);
    expect(code).toBe(1);
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr).toContain(`http://127.0.0.1:${closed}`);
  });
});
