// Errors that say what to do next: a 401 names the credential to check and the usual cause, a failed connection
// names the base URL and EXCHANGE_BASE_URL, and the first retry is announced through the logger. Against the real
// sandbox and a real port with nothing listening.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHint, unreachableHint } from "../src/error-hints.js";
import { createExchangeClient, ExchangeApiError, ExchangeNetworkError, type Logger } from "../src/index.js";
import { CUSTOMER_ID } from "./support/fake-fetch.js";
import { type Sandbox, startSandbox } from "./support/sandbox.js";

const RESTARTED =
  "the usual cause is a sandbox restarted in memory, which hands out a new key and secret at each start: use the " +
  "ones it printed last";

describe("authHint", () => {
  it.each([
    [
      "AUTH_INVALID_SIGNATURE",
      "check apiSecret (EXCHANGE_API_SECRET): it must be the secret issued with apiKey (EXCHANGE_API_KEY) in this " +
        `environment; ${RESTARTED}. A clock more than 300 s off the service's also gives this`,
    ],
    [
      "AUTH_UNAUTHORIZED",
      "check apiKey (EXCHANGE_API_KEY): it is unknown, inactive or from the other environment (sandbox and " +
        `production keys are separate); ${RESTARTED}`,
    ],
    [
      "AUTH_MISSING_HEADERS",
      "the client signs every request with X-API-KEY, X-TIMESTAMP and X-SIGNATURE, so something between it and the " +
        "service removed them: check baseUrl (EXCHANGE_BASE_URL) and any proxy on the way",
    ],
    [undefined, `check apiKey and apiSecret (EXCHANGE_API_KEY, EXCHANGE_API_SECRET); ${RESTARTED}`],
  ])("names what to check after a 401 %s", (errCode, hint) => {
    expect(authHint(errCode)).toBe(hint);
  });
});

describe("unreachableHint", () => {
  it.each([
    [
      false,
      "could not connect to http://127.0.0.1:4020: is the service (or the sandbox: npx @exchange-kit/cli sandbox) " +
        "running there? The URL is the baseUrl option, or EXCHANGE_BASE_URL when the option is left out",
    ],
    [
      true,
      "the connection to http://127.0.0.1:4020 failed before an answer arrived; if it keeps failing, check that it is " +
        "the service's URL. The URL is the baseUrl option, or EXCHANGE_BASE_URL when the option is left out",
    ],
  ])("names the base URL and EXCHANGE_BASE_URL (connected: %s)", (connected, hint) => {
    expect(unreachableHint("http://127.0.0.1:4020", connected)).toBe(hint);
  });
});

describe("a 401 from the sandbox", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox.close());

  async function rejected(apiKey: string, apiSecret: string): Promise<ExchangeApiError> {
    const client = createExchangeClient({ baseUrl: sandbox.url, apiKey, apiSecret, maxRetries: 0 });
    const error = await client.customers.get(CUSTOMER_ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeApiError);
    return error as ExchangeApiError;
  }

  it("names apiSecret and the restarted sandbox when the secret is wrong, and neither credential", async () => {
    const { apiKey, apiSecret } = sandbox.organizations[0]!;
    const error = await rejected(apiKey, `${apiSecret}-old`);
    expect(error.errCode).toBe("AUTH_INVALID_SIGNATURE");
    expect(error.message).toBe(`Invalid signature (401 AUTH_INVALID_SIGNATURE): ${authHint("AUTH_INVALID_SIGNATURE")}`);
    expect(error.message).not.toContain(apiKey);
    expect(error.message).not.toContain(apiSecret);
  });

  it("names apiKey and the restarted sandbox when the key is unknown", async () => {
    const error = await rejected("key-from-an-earlier-sandbox", "secret-from-an-earlier-sandbox");
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/^.+ \(401 AUTH_UNAUTHORIZED\): check apiKey \(EXCHANGE_API_KEY\): /);
    expect(error.message).toContain(RESTARTED);
    expect(error.message).not.toContain("earlier-sandbox");
  });
});

describe("a base URL where nothing listens", () => {
  let baseUrl: string;
  beforeAll(async () => {
    // A port that was just free: bound, then closed, so a connection to it is refused.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("fails with a message naming the base URL and EXCHANGE_BASE_URL", async () => {
    const client = createExchangeClient({ baseUrl, apiKey: "key", apiSecret: "secret", maxRetries: 0 });
    const error = await client.customers.get(CUSTOMER_ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeNetworkError);
    expect((error as Error).message).toMatch(
      /^network error: fetch failed \(.*ECONNREFUSED.*\); could not connect to /,
    );
    expect((error as Error).message).toContain(`; ${unreachableHint(baseUrl, false)}`);
  });

  it("says through the logger, on the first retry, which call is retried, why and in how long", async () => {
    const lines: string[] = [];
    const logger: Logger = { warn: (line) => lines.push(`warn ${line}`), error: (line) => lines.push(`error ${line}`) };
    const client = createExchangeClient({
      baseUrl,
      apiKey: "key",
      apiSecret: "secret",
      maxRetries: 1,
      retryBaseMs: 5,
      logger,
    });
    await client.customers.get(CUSTOMER_ID).catch(() => undefined);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(
        "^warn exchange: getCustomer attempt 1 failed \\(network error: fetch failed \\(.*ECONNREFUSED.*\\); " +
          `could not connect to ${baseUrl}: .*EXCHANGE_BASE_URL.*\\); retrying in [5-7] ms$`,
      ),
    );
    expect(lines[1]).toMatch(/^error exchange: getCustomer failed after 2 attempt\(s\): network error: /);
  });
});
