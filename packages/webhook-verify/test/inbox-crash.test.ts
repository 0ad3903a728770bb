import { Redis } from "ioredis";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { signTestWebhook } from "../src/index.js";
import { apiKey, apiSecret, eventNumber } from "./support/fixtures.js";
import {
  type JournalLine,
  type ReceiverProcess,
  type ReceiverSettings,
  readJournal,
  startReceiver,
} from "./support/receiver-processes.js";
import { redisServerAvailable, type RedisServer, startRedisServer } from "./support/servers.js";
import { until } from "./support/wait.js";

// A receiver killed with kill -9 in the middle of its handlers, after it answered 200 to every delivery: the
// service will not deliver those events again, so only what the receiver stored before answering is left.
// Real parts: a redis-server with AOF, receivers in child processes, signed deliveries over HTTP.

// Child processes start slowly on a loaded CI machine: the deadlines only turn a hang into a failure.
const SLOW_MACHINE_MS = 60_000;
const dir = mkdtempSync(join(tmpdir(), "webhook-verify-inbox-crash-"));
const started: ReceiverProcess[] = [];
let server: RedisServer | undefined;
let admin: Redis | undefined;

afterEach(async () => {
  for (const receiver of started.splice(0)) await receiver.kill();
  admin?.disconnect();
  await server?.stop();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function deliver(url: string, event: object): Promise<{ status: number; body: unknown }> {
  const { body, headers } = await signTestWebhook({ event, apiKey, apiSecret });
  const response = await fetch(url, { method: "POST", headers, body });
  return { status: response.status, body: await response.json() };
}

describe.runIf(redisServerAvailable())("a Redis inbox when its receiver is killed mid-handler", () => {
  it("a second receiver process finishes each of the 5 accepted events exactly once", async () => {
    server = await startRedisServer({ appendfsync: "always" });
    admin = new Redis(server.url);
    const journal = join(dir, "crash.jsonl");
    const steps = (step: JournalLine["step"], pid?: number) =>
      readJournal(journal).filter((line) => line.step === step && (pid === undefined || line.pid === pid));
    const settings: ReceiverSettings = {
      redisUrl: server.url,
      mode: "inbox",
      prefix: "crash:",
      journal,
      leaseSeconds: 1,
      concurrency: 5,
      pollIntervalMs: 50,
    };
    // The first receiver's handler takes a minute: the kill always lands in the middle of it.
    const first = await startReceiver({ ...settings, handlerMs: 60_000 }, started);
    const events = Array.from({ length: 5 }, (_, n) => eventNumber(n));
    const answers = await Promise.all(events.map((event) => deliver(first.url, event)));
    expect(answers).toEqual(events.map(() => ({ status: 200, body: { received: true } })));
    await until(() => steps("started", first.pid).length === 5, SLOW_MACHINE_MS);

    await first.kill("SIGKILL");
    expect(steps("done", first.pid)).toEqual([]);

    const second = await startReceiver({ ...settings, handlerMs: 20 }, started);
    await until(() => steps("done").length >= 5, SLOW_MACHINE_MS);
    // Nothing left to run, so nothing can run again: no entry held, waiting in the stream, or due for a retry.
    // A handler's journal line comes before its acknowledgement, so wait for the acknowledgements too.
    await until(async () => ((await admin!.call("XPENDING", "crash:stream", "receivers")) as [number])[0] === 0);
    expect(await admin.call("XPENDING", "crash:stream", "receivers")).toEqual([0, null, null, null]);
    expect(await admin.xlen("crash:stream")).toBe(0);
    expect(await admin.zcard("crash:retries")).toBe(0);

    const completions = steps("done").map((line) => line.id);
    const recovered = events.filter((event) => completions.filter((id) => id === event.id).length === 1).length;
    console.log(`inbox crash: ${recovered} of ${events.length} events recovered, each completed once`);
    expect([...completions].sort()).toEqual(events.map((event) => event.id).sort());
    expect(steps("done", second.pid)).toHaveLength(5);
    // The second receiver's run of each is its second attempt: the first was cut short by the kill.
    expect(steps("started", second.pid).map((line) => line.attempt)).toEqual([2, 2, 2, 2, 2]);
    expect(steps("error")).toEqual([]);

    // The service's redeliveries of those events are now duplicates, and run nothing.
    const again = await Promise.all(events.map((event) => deliver(second.url, event)));
    expect(again).toEqual(events.map(() => ({ status: 200, body: { received: true, duplicate: true } })));
    expect(await admin.xlen("crash:stream")).toBe(0);
  }, 180_000);
});
