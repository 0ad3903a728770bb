import { Redis } from "ioredis";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createDeduplicator, createInbox, createWebhookHandler, signTestWebhook } from "../src/index.js";
import { redisInbox, redisStore } from "../src/redis.js";
import { apiKey, apiSecret, eventNumber } from "./support/fixtures.js";
import { type JournalLine, type ReceiverProcess, readJournal, startReceiver } from "./support/receiver-processes.js";
import { redisServerAvailable, type RedisServer, startRedisServer } from "./support/servers.js";
import { until } from "./support/wait.js";

// A synchronous handler that blocks the event loop longer than its claim's lease cannot renew it: a
// redelivery to another receiver claims the event and runs it too. The blocked receiver cannot prevent
// that, but it finds out when its handler ends, and says so through onError.

// Child processes start slowly on a loaded CI machine: the deadlines only turn a hang into a failure.
const SLOW_MACHINE_MS = 60_000;
const dir = mkdtempSync(join(tmpdir(), "webhook-verify-lease-"));
const started: ReceiverProcess[] = [];
let server: RedisServer | undefined;
let admin: Redis | undefined;

afterEach(async () => {
  for (const receiver of started.splice(0)) await receiver.kill();
  admin?.disconnect();
  await server?.stop();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf(redisServerAvailable())("a handler that blocks the event loop past its lease", () => {
  it("reports a LeaseLostError saying the event may have run twice, once another delivery claimed and ran it", async () => {
    server = await startRedisServer();
    admin = new Redis(server.url);
    const journal = join(dir, "lease.jsonl");
    const release = join(dir, "release");
    const steps = (step: JournalLine["step"]) => readJournal(journal).filter((line) => line.step === step);
    const blocked = await startReceiver(
      { redisUrl: server.url, mode: "dedup", prefix: "lease:", journal, leaseSeconds: 0.5, blockUntil: release },
      started,
    );
    const event = eventNumber(7);
    const { body, headers } = await signTestWebhook({ event, apiKey, apiSecret });
    expect((await fetch(blocked.url, { method: "POST", headers, body })).status).toBe(200);
    await until(() => steps("started").length === 1, SLOW_MACHINE_MS);
    // Blocked, the receiver renews nothing: its claim runs out 0.5 s after its last renewal.
    const key = `lease:${event.id}:${event.event}:${event.timestamp}`;
    await until(async () => (await admin!.exists(key)) === 0, SLOW_MACHINE_MS);

    // The service's redelivery reaches another receiver on the same Redis, which claims the event and runs it.
    const ran: string[] = [];
    const store = redisStore(admin, { prefix: "lease:", persistence: "skip" });
    const other = createWebhookHandler(
      { apiKey, apiSecret, deduplicator: createDeduplicator({ store, claimTtlSeconds: 0.5 }) },
      (received) => void ran.push(received.id),
    );
    const redelivery = await other(new Request(blocked.url, { method: "POST", headers, body }));
    expect(redelivery.status).toBe(200);
    await until(async () => ran.length === 1 && (await admin!.get(key)) === "done", SLOW_MACHINE_MS);

    writeFileSync(release, ""); // the blocked handler ends
    await until(() => steps("error").length === 1, SLOW_MACHINE_MS);
    expect(steps("done")).toHaveLength(1);
    expect(steps("error")[0]!.error).toEqual({
      name: "LeaseLostError",
      message: expect.stringMatching(
        new RegExp(`^the claim on ${event.id}:SUCCESS:${event.timestamp} was lost .* may have run twice`),
      ),
    });
  }, 180_000);

  it("in an inbox, reports a LeaseLostError once another receiver took the event over and ran it", async () => {
    server = await startRedisServer({ appendfsync: "everysec" });
    admin = new Redis(server.url);
    const journal = join(dir, "inbox-lease.jsonl");
    const release = join(dir, "inbox-release");
    const steps = (step: JournalLine["step"]) => readJournal(journal).filter((line) => line.step === step);
    const blocked = await startReceiver(
      { redisUrl: server.url, mode: "inbox", prefix: "lease:", journal, leaseSeconds: 0.5, blockUntil: release },
      started,
    );
    const event = eventNumber(8);
    const { body, headers } = await signTestWebhook({ event, apiKey, apiSecret });
    expect((await fetch(blocked.url, { method: "POST", headers, body })).status).toBe(200);
    await until(() => steps("started").length === 1, SLOW_MACHINE_MS);

    // Another receiver of the same inbox takes the entry over once it has gone unrenewed for the lease.
    const ran: number[] = [];
    const other = createInbox({
      store: redisInbox(admin, { prefix: "lease:", persistence: "skip" }),
      leaseSeconds: 0.5,
      pollIntervalMs: 20,
      handler: (_event, { attempt }) => void ran.push(attempt),
    });
    other.start();
    try {
      await until(async () => ran.length === 1 && (await admin!.xlen("lease:stream")) === 0, SLOW_MACHINE_MS);
    } finally {
      await other.stop();
    }
    expect(ran).toEqual([2]);

    writeFileSync(release, ""); // the blocked handler ends
    await until(() => steps("error").length === 1, SLOW_MACHINE_MS);
    expect(steps("error")[0]!.error).toEqual({
      name: "LeaseLostError",
      message: expect.stringMatching(
        new RegExp(`^the claim on ${event.id}:SUCCESS:${event.timestamp} was lost .* may have run twice`),
      ),
    });
  }, 180_000);
});
