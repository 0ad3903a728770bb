// What two replicas on one database keep and see together: the request log holds exactly one entry per answered
// request, numbered without a collision, each naming the replica that answered; a change of cached state on one
// replica (settings, clock, an armed fault) is what the next request on the other sees. Two replica processes
// (the built package) named "r1" and "r2", on a PostgreSQL server of their own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unique, waitFor } from "../helpers.js";
import { createDatabase, type PostgresServer, startPostgres } from "../support/postgres-server.js";
import { killReplicas, type Replica, type ReplicaProcess, spawnReplica } from "../support/replicas.js";

let server: PostgresServer;
let processes: ReplicaProcess[] = [];
let replicas: Replica[];

beforeAll(async () => {
  processes = [spawnReplica(), spawnReplica()];
  server = await startPostgres();
  const db = await createDatabase(server.url, "replica_state");
  replicas = await Promise.all(processes.map((p, i) => p.start(db, { replica: `r${i + 1}` })));
}, 60_000);

afterAll(async () => {
  await killReplicas(processes);
  server?.stop();
});

interface Entry {
  seq: number;
  at: string;
  replica: string;
  request: { text: string };
}

/** Every entry of Org A's log, oldest first, read through the first replica. */
async function wholeLog(): Promise<Entry[]> {
  const entries: Entry[] = [];
  for (;;) {
    const after = entries.at(-1)?.seq ?? 0;
    const page = await replicas[0]!.api().ok("GET", "/_sandbox/requests", undefined, {
      query: { order: "asc", after, limit: 1000 },
    });
    entries.push(...page.results);
    if (page.results.length < 1000) return entries;
  }
}

describe("the request log over two replicas", () => {
  it("keeps exactly one entry, named by its replica, per request answered 200, numbered 1 to N", async () => {
    const n = 300;
    const sent: Array<{ reference: string; replica: string }> = [];
    // 20 clients at once, each sending its requests to the replicas in turn.
    await Promise.all(
      Array.from({ length: 20 }, async (_, client) => {
        for (let i = client; i < n; i += 20) {
          const index = i % 2;
          const reference = unique("log");
          const res = await replicas[index]!.api().post("/cms/api/v1/customer/create", {
            client_reference_id: reference,
            full_name: "Asha Verma",
            alpha_3_country_code: "IND",
          });
          expect(res.status).toBe(200);
          sent.push({ reference, replica: `r${index + 1}` });
        }
      }),
    );
    const entries = await waitFor(async () => {
      const found = await wholeLog();
      return found.length >= n && found;
    }, `${n} entries`);
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    const replicaOf = new Map(entries.map((e) => [JSON.parse(e.request.text).client_reference_id, e.replica]));
    expect(sent.filter(({ reference, replica }) => replicaOf.get(reference) !== replica)).toEqual([]);
    expect(replicaOf.size).toBe(n);
  }, 60_000);

  it("dates entries to the millisecond, in the order the requests were sent one after another", async () => {
    const references: string[] = [];
    for (let i = 0; i < 30; i++) {
      const reference = unique("order");
      await replicas[i % 2]!.api().ok("POST", "/cms/api/v1/customer/create", {
        client_reference_id: reference,
        full_name: "Asha Verma",
        alpha_3_country_code: "IND",
      });
      references.push(reference);
    }
    const ours = await waitFor(async () => {
      const found = (await wholeLog()).filter((e) =>
        references.includes(JSON.parse(e.request.text).client_reference_id),
      );
      return found.length === references.length && found;
    }, "30 entries");
    for (const entry of ours) expect(entry.at).toMatch(/T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const atOf = new Map(ours.map((e) => [JSON.parse(e.request.text).client_reference_id, Date.parse(e.at)]));
    const times = references.map((reference) => atOf.get(reference)!);
    expect(times).toEqual([...times].sort((x, y) => x - y));
    // Each replica keeps its own entries in the order it answered them.
    for (const name of ["r1", "r2"]) {
      const own = ours.filter((e) => e.replica === name).map((e) => Date.parse(e.at));
      expect(own).toEqual([...own].sort((x, y) => x - y));
    }
  }, 60_000);
});

describe("state a replica caches", () => {
  it("shows the next request on replica B a setting changed on replica A, though B had read it just before", async () => {
    const [a, b] = [replicas[0]!.api(), replicas[1]!.api()];
    for (let i = 0; i < 3; i++) await b.ok("GET", "/_sandbox/settings");
    await a.ok("POST", "/_sandbox/settings", { quotation_ttl_seconds: 42 });
    expect((await b.ok("GET", "/_sandbox/settings")).quotation_ttl_seconds).toBe(42);
  });

  it("shows the next request on replica B the clock advanced on replica A, though B had read it just before", async () => {
    const [a, b] = [replicas[0]!.api(), replicas[1]!.api()];
    let before = await b.ok("GET", "/_sandbox/clock");
    before = await b.ok("GET", "/_sandbox/clock");
    await a.ok("POST", "/_sandbox/clock/advance", { seconds: 600 });
    expect((await b.ok("GET", "/_sandbox/clock")).offset_seconds - before.offset_seconds).toBe(600);
  });

  it("applies a fault armed on replica A to the next request on replica B, though B had found none armed before", async () => {
    const [a, b] = [replicas[0]!.api(), replicas[1]!.api()];
    for (let i = 0; i < 3; i++) expect((await b.get("/cms/api/v1/customer/list")).status).toBe(200);
    await a.ok("POST", "/_sandbox/faults", { operation: "listCustomers", fault: "UNKNOWN_ERROR" });
    const faulted = await b.get("/cms/api/v1/customer/list");
    expect([faulted.status, faulted.body.err_code]).toEqual([400, "UNKNOWN_ERROR"]);
    // Fired once (times 1 by default): the rule's removal reaches replica A's next request as well.
    expect((await a.get("/cms/api/v1/customer/list")).status).toBe(200);
  });
});
