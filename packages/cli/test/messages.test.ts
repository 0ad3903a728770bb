// What the cli says when a call fails: a 401 names the credential to check and the likely cause, an unreachable
// sandbox its URL and the variable that sets it, a failed forward its cause and URL. Each message asserted whole.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createSandbox, type Sandbox } from "@exchange-kit/sandbox";
import { signRequest } from "@exchange-kit/signing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authFailureMessage } from "../src/auth-failure.js";
import { forwardFailure } from "../src/commands/listen.js";
import { run } from "./run.js";

const env = { EXCHANGE_API_KEY: "ek_msg_key", EXCHANGE_API_SECRET: "ek_msg_secret" };
const LIKELY_CAUSE =
  "Likely cause: the sandbox was restarted. Without --db it keeps everything in memory and, started without " +
  "credentials, generates a new key pair each time: paste the export line its ready output prints, or start it " +
  "with fixed ones (EXCHANGE_API_KEY and EXCHANGE_API_SECRET set, or --api-key and --api-secret).";
let sandbox: Sandbox;

/** A port nothing listens on (opened, then closed). */
async function closedPort(): Promise<number> {
  const probe: Server = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

beforeAll(async () => {
  sandbox = await createSandbox({
    port: 0,
    organizations: [{ apiKey: env.EXCHANGE_API_KEY, apiSecret: env.EXCHANGE_API_SECRET }],
    autoProgressMs: false,
  });
});

afterAll(async () => {
  await sandbox?.close();
});

describe("the message of a 401", () => {
  it.each([
    [
      "AUTH_INVALID_SIGNATURE",
      "it refused the signature: check EXCHANGE_API_SECRET (or --api-secret), and that this machine's clock is right",
    ],
    ["AUTH_UNAUTHORIZED", "it does not know the API key: check EXCHANGE_API_KEY (or --api-key)"],
    ["AUTH_MISSING_HEADERS", "check EXCHANGE_API_KEY and EXCHANGE_API_SECRET (or --api-key and --api-secret)"],
    [undefined, "check EXCHANGE_API_KEY and EXCHANGE_API_SECRET (or --api-key and --api-secret)"],
  ])("for %s names what to check", (code, check) => {
    expect(authFailureMessage(code, "http://127.0.0.1:4020")).toBe(
      `401 ${code ?? "(no err_code)"} from the sandbox at http://127.0.0.1:4020: ${check}.\n${LIKELY_CAUSE}`,
    );
  });
});

describe("exchange-kit trigger, when the call fails", () => {
  it("prints the usage when no event is named, exit 2", async () => {
    const cli = run(["trigger"], env);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(
      /^error: which event\? name its TYPE and EVENT\n\nexchange-kit trigger TYPE EVENT --id ID/,
    );
    expect(cli.stderr()).toContain("CUSTOMER: VERIFIED");
  });

  it("names the secret to check and the likely cause for a wrong secret, exit 1", async () => {
    const cli = run(["trigger", "CUSTOMER", "VERIFIED", "--id", "x", "--base-url", sandbox.url], {
      ...env,
      EXCHANGE_API_SECRET: "the-old-secret",
    });
    expect(await cli.code).toBe(1);
    expect(cli.stderr()).toBe(`error: ${authFailureMessage("AUTH_INVALID_SIGNATURE", sandbox.url)}\n`);
    expect(cli.stderr()).not.toContain("the-old-secret");
  });

  it("names the key to check for a key the sandbox does not know, exit 1", async () => {
    const cli = run(["trigger", "CUSTOMER", "VERIFIED", "--id", "x", "--base-url", sandbox.url, "--json"], {
      ...env,
      EXCHANGE_API_KEY: "ek_unknown",
    });
    expect(await cli.code).toBe(1);
    expect(JSON.parse(cli.stderr())).toEqual({
      error: "AUTH_UNAUTHORIZED",
      message: authFailureMessage("AUTH_UNAUTHORIZED", sandbox.url),
    });
  });

  it("names the base URL and EXCHANGE_BASE_URL when nothing listens there, exit 1", async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const cli = run(["trigger", "CUSTOMER", "VERIFIED", "--id", "x"], { ...env, EXCHANGE_BASE_URL: down });
    expect(await cli.code).toBe(1);
    expect(cli.stderr()).toMatch(
      new RegExp(
        `^error: cannot reach the sandbox at ${down} \\(connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+\\): is it running\\? Start it with \`exchange-kit sandbox\`, or point --base-url \\(or EXCHANGE_BASE_URL\\) at it\\.\\n$`,
      ),
    );
  });
});

describe("exchange-kit listen, when the call fails", () => {
  it("names the secret to check and the likely cause when registering gets a 401, exit 1", async () => {
    const cli = run(["listen", "--base-url", sandbox.url, "--forward-to", "http://127.0.0.1:9/hooks"], {
      ...env,
      EXCHANGE_API_SECRET: "the-old-secret",
    });
    expect(await cli.code).toBe(1);
    expect(cli.stderr()).toMatch(/^error: could not register http:\/\/127\.0\.0\.1:\d+\/: 401 AUTH_INVALID_SIGNATURE/);
    expect(cli.stderr()).toContain(
      `from the sandbox at ${sandbox.url}: it refused the signature: check EXCHANGE_API_SECRET`,
    );
    expect(cli.stderr()).toContain(LIKELY_CAUSE);
  });

  it("names the base URL and EXCHANGE_BASE_URL when nothing listens there, exit 1", async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const cli = run(["listen", "--forward-to", "http://127.0.0.1:9/hooks"], { ...env, EXCHANGE_BASE_URL: down });
    expect(await cli.code).toBe(1);
    expect(cli.stderr()).toContain(`error: cannot reach the sandbox at ${down} (`);
    expect(cli.stderr()).toContain("point --base-url (or EXCHANGE_BASE_URL) at it.");
  });

  it("prints the cause and the receiver's URL when a forward fails, and answers 502", async () => {
    const receiver = `http://127.0.0.1:${await closedPort()}/hooks`;
    const listener = run(["listen", "--base-url", sandbox.url, "--forward-to", receiver], env);
    await listener.waitFor("listening on");
    const signed = await signRequest({
      ...{ apiKey: env.EXCHANGE_API_KEY, apiSecret: env.EXCHANGE_API_SECRET },
      body: { client_reference_id: `fwd-${Date.now()}`, alpha_3_country_code: "IND", full_name: "Asha Verma" },
    });
    const created = (await (
      await fetch(`${sandbox.url}/cms/api/v1/customer/create`, { method: "POST", ...signed })
    ).json()) as { data: { id: string } };
    const trigger = run(["trigger", "CUSTOMER", "VERIFIED", "--id", created.data.id, "--base-url", sandbox.url], env);
    expect(await trigger.code).toBe(0);
    const line = await listener.waitFor(" -> 502");
    expect(line).toContain(
      `verified CUSTOMER VERIFIED ${created.data.id} could not forward to ${receiver}: connect ECONNREFUSED 127.0.0.1:`,
    );
    expect(line).toContain("(is your receiver running?) -> 502");
    listener.stop();
    expect(await listener.code).toBe(0);
  });
});

describe("the reason a forward failed", () => {
  const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:3000"), { code: "ECONNREFUSED" });
  it.each([
    [
      new TypeError("fetch failed", { cause: refused }),
      "could not forward to http://127.0.0.1:3000/hooks: connect ECONNREFUSED 127.0.0.1:3000 (is your receiver running?)",
    ],
    [
      new TypeError("fetch failed", { cause: new Error("getaddrinfo ENOTFOUND receiver.invalid") }),
      "could not forward to http://127.0.0.1:3000/hooks: getaddrinfo ENOTFOUND receiver.invalid",
    ],
    [
      new DOMException("The operation was aborted due to timeout", "TimeoutError"),
      "could not forward to http://127.0.0.1:3000/hooks: The operation was aborted due to timeout",
    ],
  ])("%s reads as the cause and the URL", (error, expected) => {
    expect(forwardFailure("http://127.0.0.1:3000/hooks", error)).toBe(expected);
  });
});
