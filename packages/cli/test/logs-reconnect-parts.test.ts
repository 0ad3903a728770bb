// The parts of following that survive the sandbox going away: which failures mean "away", the backoff between
// tries, and the read loop that says so once, goes on when the sandbox answers, and ends at once on Ctrl-C.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createExchangeClient, type ExchangeError } from "@exchange-kit/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logStartedOver, type RequestLogPage } from "../src/commands/logs/follow.js";
import { isSandboxAway, readUntilBack, reconnectDelay } from "../src/commands/logs/reconnect.js";

let status = 200;
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    const body = status === 200 ? { status: true, data: {} } : { status: false, err_code: "AUTH_INVALID_KEY" };
    res.writeHead(status, { "content-type": status === 502 ? "text/html" : "application/json" });
    res.end(status === 502 ? "<html>502 Bad Gateway</html>" : JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const clientOf = (url: string) =>
  createExchangeClient({ baseUrl: url, apiKey: "k", apiSecret: "s", maxRetries: 0, timeoutMs: 2000 });

/** The error a real read fails with: against a closed port, or this server answering `answer`. */
async function failureOf(url: string, answer = 200): Promise<unknown> {
  status = answer;
  return clientOf(url)
    .request("GET", "/_sandbox/requests")
    .then(
      () => undefined,
      (error: unknown) => error,
    );
}

describe("which failed read means the sandbox is away", () => {
  it.each([
    ["a refused connection", "closed", 200, true],
    ["a balancer's 502 with no replica behind it", "server", 502, true],
    ["a balancer's 503", "server", 503, true],
    ["a refused key (401)", "server", 401, false],
    ["a refused filter (400)", "server", 400, false],
  ])("%s: %s", async (_what, where, answer, away) => {
    const error = await failureOf(where === "closed" ? "http://127.0.0.1:9" : base, answer);
    expect(error).toBeDefined();
    expect(isSandboxAway(error)).toBe(away);
  });

  it("an error that is not the client's is not the sandbox being away", () => {
    expect(isSandboxAway(new TypeError("bug"))).toBe(false);
  });
});

describe("the wait between two tries", () => {
  it.each([
    [1, 500, 500],
    [2, 500, 1000],
    [3, 500, 2000],
    [4, 500, 4000],
    [5, 500, 5000],
    [60, 500, 5000],
    [1, 50, 50],
    [7, 50, 3200],
  ])("try %i after an interval of %i ms waits %i ms", (attempt, interval, wait) => {
    expect(reconnectDelay(attempt, interval)).toBe(wait);
  });
});

describe("a log that started over", () => {
  const page = (latest: number): RequestLogPage => ({ count: 0, results: [], oldest_seq: 0, latest_seq: latest });
  it.each([
    [0, 0, false],
    [5, 5, false],
    [5, 9, false],
    [5, 3, true],
    [5, 0, true],
  ])("after %i, a log whose newest is %i started over: %s", (cursor, latest, over) => {
    expect(logStartedOver(page(latest), cursor)).toBe(over);
  });
});

describe("reading until the sandbox is back", () => {
  it("says once that it is away, then that it is back, and answers what the read answered", async () => {
    const said: string[] = [];
    let tries = 0;
    const away = await failureOf("http://127.0.0.1:9");
    const answer = await readUntilBack(
      async () => {
        if (++tries < 4) throw away;
        return "page";
      },
      {
        intervalMs: 1,
        signal: new AbortController().signal,
        away: (e) => said.push(`away ${e.name}`),
        back: () => said.push("back"),
      },
    );
    expect(answer).toBe("page");
    expect(tries).toBe(4);
    expect(said).toEqual(["away ExchangeNetworkError", "back"]);
  });

  it("throws any other error at once, without a retry", async () => {
    const refused = await failureOf(base, 401);
    let tries = 0;
    const reading = readUntilBack(
      async () => {
        tries++;
        throw refused;
      },
      { intervalMs: 1, signal: new AbortController().signal, away: () => {}, back: () => {} },
    );
    await expect(reading).rejects.toBe(refused);
    expect(tries).toBe(1);
  });

  it("ends as soon as it is stopped, in the middle of a long wait", async () => {
    const stop = new AbortController();
    const away = (await failureOf("http://127.0.0.1:9")) as ExchangeError;
    const reading = readUntilBack(
      async () => {
        throw away;
      },
      // A one-hour wait: the test only ends in time if stopping cuts it short.
      { intervalMs: 3_600_000, signal: stop.signal, away: () => stop.abort(), back: () => {} },
    );
    await expect(reading).resolves.toBeUndefined();
  });
});
