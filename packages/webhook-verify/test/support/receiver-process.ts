// A webhook receiver in its own process, for the tests that kill one with SIGKILL: node:http and
// createNodeWebhookHandler on a real Redis (a durable inbox, or dedup claims), started by
// receiver-processes.ts with its settings as the one argument. Its handler writes each step as a JSON
// line to a journal opened for appending (O_APPEND), so the lines of several processes never mix.
import { appendFileSync, existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "redis";
import { createDeduplicator, createInbox, type ReceivedWebhookEvent } from "../../src/index.js";
import { createNodeWebhookHandler } from "../../src/node.js";
import { redisInbox, redisStore } from "../../src/redis.js";
import { apiKey, apiSecret } from "./fixtures.js";
import type { JournalLine, ReceiverSettings } from "./receiver-processes.js";

const settings = JSON.parse(process.argv[2]!) as ReceiverSettings;

function journal(line: Omit<JournalLine, "pid">): void {
  appendFileSync(settings.journal, `${JSON.stringify({ pid: process.pid, ...line })}\n`, { flag: "a" });
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Answers this process has finished writing: a handler that blocks the event loop waits for its delivery's. */
let answersSent = 0;

/**
 * Resolves once an answer has gone out. With an inbox, the worker can take the stored event before the delivery's
 * 200 is written; blocking the event loop then would also block that answer, and the sender would wait forever.
 * The test is about the lease, so the handler blocks only once the delivery has been answered.
 */
async function afterAnAnswer(): Promise<void> {
  while (answersSent === 0) await new Promise((resolve) => setImmediate(resolve));
}

/** The work: a wait of handlerMs, or a busy loop that blocks the event loop until the file `blockUntil` exists. */
async function work(event: ReceivedWebhookEvent, attempt?: number): Promise<void> {
  journal({ step: "started", id: event.id, attempt });
  if (settings.blockUntil !== undefined) {
    await afterAnAnswer();
    while (!existsSync(settings.blockUntil)) Atomics.wait(pause, 0, 0, 5); // blocks this thread: no timer runs
  } else {
    await new Promise((resolve) => setTimeout(resolve, settings.handlerMs ?? 0));
  }
  journal({ step: "done", id: event.id, attempt });
}

const onError = (error: unknown) => {
  const { name, message } = error as Error;
  journal({ step: "error", error: { name, message } });
};

const redis = await createClient({ url: settings.redisUrl, socket: { reconnectStrategy: () => 20 } })
  .on("error", () => {})
  .connect();
const credentials = { apiKey, apiSecret, onError };
let handler: ReturnType<typeof createNodeWebhookHandler>;
if (settings.mode === "inbox") {
  const inbox = createInbox({
    store: redisInbox(redis, { prefix: settings.prefix, persistence: "require" }),
    handler: (event, { attempt }) => work(event, attempt),
    leaseSeconds: settings.leaseSeconds,
    concurrency: settings.concurrency ?? 4,
    pollIntervalMs: settings.pollIntervalMs ?? 50,
    onError,
  });
  inbox.start();
  handler = createNodeWebhookHandler({ ...credentials, inbox });
} else {
  const store = redisStore(redis, { prefix: settings.prefix, persistence: "skip" });
  const deduplicator = createDeduplicator({ store, claimTtlSeconds: settings.leaseSeconds });
  handler = createNodeWebhookHandler({ ...credentials, deduplicator }, (event) => work(event));
}
const server = createServer((request, response) => {
  response.on("finish", () => answersSent++);
  handler(request, response);
}).listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
