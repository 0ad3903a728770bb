// Scheduled work on PostgreSQL is a job queue the replicas share: a replica killed with SIGKILL leaves its
// scheduled steps and webhook deliveries to the others, which do each once (counted at a real receiver), and a
// job it was running when it died is run again by another replica. Replicas are processes of the built package
// on one database of a real server started for this file.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/index.js";
import { arm } from "../faults/fault-helpers.js";
import { Api, createCustomer, kycBody, ORG_A, startReceiver, waitFor } from "../helpers.js";
import { createDatabase, type PostgresServer, startPostgres } from "../support/postgres-server.js";

const SERVE = fileURLToPath(new URL("../fixtures/serve-replica.mjs", import.meta.url));
let server: PostgresServer;
let sequence = 0;
const children: ChildProcess[] = [];

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});
afterAll(() => server?.stop());

/** A new, empty database on the test server, and its URL. */
const freshDatabase = (): Promise<string> => createDatabase(server.url, `jobs_${sequence++}`);

interface Replica {
  api: Api;
  child: ChildProcess;
}

/** Starts a replica process on `db` and resolves once it listens. */
function replica(db: string, settings: Record<string, unknown>): Promise<Replica> {
  const child = spawn(process.execPath, [SERVE, db, JSON.stringify(settings)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const line = text.split("\n")[0];
      if (!text.includes("\n")) return;
      const started = JSON.parse(line!) as { url?: string; error?: string };
      if (!started.url) return reject(new Error(started.error));
      resolve({ api: new Api({ url: started.url } as Sandbox, ORG_A), child });
    });
    child.on("exit", (code) => {
      if (!text.includes("\n")) reject(new Error(`replica exited with ${code} before it was ready`));
    });
  });
}

function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null)
    throw new Error(`the replica had exited (${child.exitCode})`);
  const exit = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGKILL");
  return exit;
}

const FAST_QUEUE = { pollMs: 50, livenessSweepMs: 200, livenessGraceSeconds: 1 };

/** How many times the receiver got each event (by the sandbox's event ID header). */
function countsByEvent(deliveries: Array<{ headers: Record<string, unknown> }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of deliveries) {
    const id = String(d.headers["x-sandbox-event-id"]);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

describe("scheduled work across replicas", () => {
  it("does a KYC step and a webhook delivery that a replica killed with SIGKILL had scheduled, each once", async () => {
    const db = await freshDatabase();
    const receiver = await startReceiver();
    const a = await replica(db, { autoProgressMs: 1500, queue: FAST_QUEUE });
    const b = await replica(db, { autoProgressMs: 1500, queue: FAST_QUEUE });
    await a.api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    // Replica A schedules a KYC step (due in 1.5 s) and a webhook delivery (due in 1 s: a delayed one), then dies.
    await arm(a.api, { event_type: "CUSTOMER", fault: "DELAYED_DELIVERY", delay_ms: 1000 });
    const moved = await createCustomer(a.api);
    await a.api.ok("POST", `/_sandbox/customers/${moved.id}/transition`, { status: "VERIFIED" });
    const customer = await createCustomer(a.api);
    await a.api.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(customer.id));
    const scheduledByA = (await a.api.ok("GET", "/_sandbox/events")).results;
    expect(scheduledByA.some((e: any) => e.deliveries.some((d: any) => d.state === "pending"))).toBe(true);
    await killed(a.child);

    const verified = await waitFor(
      async () => {
        const c = await b.api.ok("GET", `/cms/api/v1/customer/${customer.id}`);
        return c.status !== "UNVERIFIED" && c;
      },
      "the KYC outcome on replica B",
      15_000,
    );
    expect(verified.status).toBe("VERIFIED");
    const events = await waitFor(
      async () => {
        const all = (await b.api.ok("GET", "/_sandbox/events")).results;
        return all.every((e: any) => e.deliveries.every((d: any) => d.state === "delivered")) && all;
      },
      "every event delivered",
      15_000,
    );
    // A job run twice would show here: another step's event, or a second delivery at the receiver.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const steps = events.map((e: any) => `${e.body.id} ${e.body.event}`);
    expect(new Set(steps).size).toBe(steps.length);
    const counts = countsByEvent(receiver.deliveries);
    expect([...counts.keys()].sort()).toEqual(events.map((e: any) => e.id).sort());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  }, 40_000);

  it("runs again on another replica a delivery whose replica was killed while sending it", async () => {
    const db = await freshDatabase();
    let first = true;
    // The first POST never gets an answer (replica A dies waiting); the next one is answered.
    const receiver = await startReceiver(() => {
      if (!first) return 200;
      first = false;
      return new Promise<number>(() => {});
    });
    // A long receiver timeout: replica A's attempt must still be waiting when A is killed, however slow B's start.
    const slowReceiver = { queue: FAST_QUEUE, webhookTimeoutMs: 60_000 };
    const a = await replica(db, slowReceiver);
    await a.api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    const customer = await createCustomer(a.api);
    const moved = await a.api.ok("POST", `/_sandbox/customers/${customer.id}/transition`, { status: "VERIFIED" });
    await waitFor(() => receiver.deliveries.length === 1, "replica A's attempt", 10_000);
    // Only now does B start, so the job cannot have been B's; then A dies with it in hand.
    const b = await replica(db, slowReceiver);
    await killed(a.child);

    await waitFor(() => receiver.deliveries.length === 2, "the attempt again, from replica B", 15_000);
    const [event] = await waitFor(async () => {
      const all = (await b.api.ok("GET", "/_sandbox/events")).results;
      return all[0]?.deliveries[0]?.state === "delivered" && all;
    }, "the delivery recorded");
    expect(event.id).toBe(moved.event.id);
    expect([...countsByEvent(receiver.deliveries)]).toEqual([[moved.event.id, 2]]);
    expect(event.deliveries[0].attempts).toMatchObject([{ attempt: 1, status_code: 200 }]);
  }, 40_000);
});
