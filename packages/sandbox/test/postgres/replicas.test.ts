// Several sandbox processes ("replicas") on one PostgreSQL database behave as one sandbox: the money rules hold
// when concurrent requests for the same facts land on different replicas (each request is one SERIALIZABLE
// transaction, rerun when it loses a race), the clock, settings and webhook registration are shared, and a
// PostgreSQL restart under load answers 503 while the server is down and loses nothing acknowledged.
// Three replicas (separate Node processes running the built package) and one PostgreSQL server serve the whole
// file, the replicas started at the same moment on a fresh database (so the schema, and the tables made beside
// it, are created under the migration lock); the restart test, which kills that server, runs last.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiResponse,
  ORG_B,
  payoutQuotationBody,
  startReceiver,
  unique,
  uniquePhone,
  verifiedBank,
  verifiedCustomer,
  waitFor,
} from "../helpers.js";
import { createDatabase, type PostgresServer, startPostgres } from "../support/postgres-server.js";
import {
  killReplicas,
  type Replica,
  type ReplicaProcess,
  spawnReplica,
  spread,
  startReplicas,
} from "../support/replicas.js";

let server: PostgresServer;
let processes: ReplicaProcess[] = [];
let replicas: Replica[];

beforeAll(async () => {
  // The processes load the package while the server is made: most of a replica's start is loading it.
  processes = [spawnReplica(), spawnReplica(), spawnReplica()];
  server = await startPostgres();
  replicas = await startReplicas(processes, await createDatabase(server.url, "replicas"));
}, 60_000);

afterAll(async () => {
  await killReplicas(processes);
  server?.stop();
});

/** How many answers had each status and err_code, e.g. {"200": 1, "400 PAYIN_QUOTATION_LINKED": 99}. */
function tally(answers: readonly ApiResponse[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status, body } of answers) {
    const key = body.err_code ? `${status} ${body.err_code}` : String(status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** A verified customer with a verified bank account, made through the first replica. */
async function customerWithBank() {
  const api = replicas[0]!.api();
  const customer = await verifiedCustomer(api);
  const bank = await verifiedBank(api, customer.id);
  return { customer, bank };
}

let utrSeq = 700000000000;

describe("money rules across replicas", () => {
  it("gives exactly one payin order for 100 concurrent initiates of one quotation over 3 replicas; every other answer is PAYIN_QUOTATION_LINKED", async () => {
    const { customer, bank } = await customerWithBank();
    const quote = await replicas[0]!.api().ok("POST", "/pis/api/v1/payin/quotation", {
      customer_id: customer.id,
      bank_id: bank.id,
      asset: "usdt",
      fiat: "INR",
      network: "polygon",
      payment_method: "IMPS",
      wallet_address: "0x1111111111111111111111111111111111111111",
      sending_amount: "10000",
      risk_parameters: { ip_address: "203.0.113.24" },
    });
    const answers = await spread(replicas, 100, (i, replica) =>
      replica.api().post("/pis/api/v1/payin/initiate", {
        quotation_id: quote.id,
        client_reference_id: `payin-race-${i}`,
        transaction_reference_id: String(utrSeq++),
      }),
    );
    expect(tally(answers)).toEqual({ "200": 1, "400 PAYIN_QUOTATION_LINKED": 99 });
    const history = await replicas[2]!.api().ok("GET", "/pis/api/v1/payin/history");
    expect(history.count).toBe(1);
  });

  it("gives exactly one payout order for 100 concurrent initiates of one quotation over 3 replicas; every other answer is PAYOUT_QUOTATION_LINKED", async () => {
    const { customer, bank } = await customerWithBank();
    const quote = await replicas[1]!
      .api()
      .ok("POST", "/pos/api/v1/payout/quotation", payoutQuotationBody(customer.id, bank.id));
    const answers = await spread(replicas, 100, (i, replica) =>
      replica
        .api()
        .post("/pos/api/v1/payout/initiate", { quotation_id: quote.id, client_reference_id: `payout-race-${i}` }),
    );
    expect(tally(answers)).toEqual({ "200": 1, "400 PAYOUT_QUOTATION_LINKED": 99 });
    const history = await replicas[0]!.api().ok("GET", "/pos/api/v1/payout/history");
    expect(history.count).toBe(1);
  });

  it("makes one customer of 50 concurrent creates with one client_reference_id, and answers every create with it", async () => {
    // Org B has no other customers in this file, so its list counts the race's.
    const reference = unique("race-ref");
    const answers = await spread(replicas, 50, (_, replica) =>
      replica.api(ORG_B).post("/cms/api/v1/customer/create", {
        client_reference_id: reference,
        full_name: "Asha Verma",
        alpha_3_country_code: "IND",
      }),
    );
    // As on one replica, a repeated reference answers the existing customer.
    expect(tally(answers)).toEqual({ "200": 50 });
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    const listed = await replicas[1]!.api(ORG_B).ok("GET", "/cms/api/v1/customer/list");
    expect(listed.count).toBe(1);
  });

  it("gives an email and a phone to one customer when 12 customers with each are created at once over 3 replicas", async () => {
    const email = `${unique("race")}@example.com`;
    const phone = uniquePhone();
    for (const contact of [{ email }, { phone }]) {
      const answers = await spread(replicas, 12, (_, replica) =>
        replica.api().post("/cms/api/v1/customer/create", {
          client_reference_id: unique("contact"),
          full_name: "Asha Verma",
          alpha_3_country_code: "IND",
          ...contact,
        }),
      );
      expect(tally(answers)).toEqual({ "200": 1, "400 USR_DUPLICATE_CONTACT": 11 });
    }
  });

  it("never lets 10 concurrent bank-account creates for one customer over 3 replicas pass the 3-accounts limit", async () => {
    const customer = await verifiedCustomer(replicas[0]!.api());
    const answers = await spread(replicas, 10, (i, replica) =>
      replica.api().post("/cms/api/v1/bank/create", {
        customer_id: customer.id,
        bank_account_type: "UPI",
        identifiers: { vpa: `race${i}@okhdfc` },
      }),
    );
    expect(tally(answers)).toEqual({ "200": 3, "400 BANK_LIMIT_REACHED": 7 });
    const listed = await replicas[2]!.api().ok("GET", `/cms/api/v1/bank/list/${customer.id}`);
    expect(listed.results).toHaveLength(3);
  });

  it("accepts one UTR once when 20 payins with it are initiated at once over 3 replicas", async () => {
    const { customer, bank } = await customerWithBank();
    const api = replicas[0]!.api();
    const quotes: Array<{ id: string }> = [];
    for (let i = 0; i < 20; i++)
      quotes.push(
        await api.ok("POST", "/pis/api/v1/payin/quotation", {
          customer_id: customer.id,
          bank_id: bank.id,
          asset: "usdt",
          fiat: "INR",
          network: "polygon",
          payment_method: "IMPS",
          wallet_address: "0x1111111111111111111111111111111111111111",
          sending_amount: "1000",
          risk_parameters: { ip_address: "203.0.113.24" },
        }),
      );
    const utr = String(utrSeq++);
    const answers = await spread(replicas, 20, (i, replica) =>
      replica.api().post("/pis/api/v1/payin/initiate", {
        quotation_id: quotes[i]!.id,
        client_reference_id: `utr-race-${i}`,
        transaction_reference_id: utr,
      }),
    );
    expect(tally(answers)).toEqual({ "200": 1, "400 PAYIN_DUPLICATE_UTR": 19 });
  });
});

describe("state shared by replicas", () => {
  it("shows on replica B the clock advanced, the setting changed and the webhook registered on replica A", async () => {
    const [a, b] = [replicas[0]!.api(ORG_B), replicas[1]!.api(ORG_B)];
    const before = await b.ok("GET", "/_sandbox/clock");
    await a.ok("POST", "/_sandbox/clock/advance", { seconds: 3600 });
    const seen = await b.ok("GET", "/_sandbox/clock");
    expect(seen.offset_seconds - before.offset_seconds).toBe(3600);
    expect(Date.parse(seen.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(3600_000);
    await a.ok("POST", "/_sandbox/settings", { auto_progress_ms: 250 });
    await a.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: "https://hooks.example.com/b" });
    expect(await b.ok("GET", "/_sandbox/settings")).toMatchObject({
      auto_progress_ms: 250,
      webhook_url: "https://hooks.example.com/b",
    });
  });

  it("delivers an event a replica emits to the webhook registered on another", async () => {
    const receiver = await startReceiver();
    await replicas[0]!.api().ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    const customer = await verifiedCustomer(replicas[2]!.api());
    const event = await waitFor(
      () => receiver.deliveries.find((d) => d.body.type === "CUSTOMER" && d.body.id === customer.id),
      "the CUSTOMER event",
    );
    expect(event.body.event).toBe(customer.status);
  });
});

/** How long a client waits for an answer before it counts the request as hung. */
const CLIENT_TIMEOUT_MS = 10_000;

type Phase = "up" | "down" | "restarted";

interface Outcome {
  readonly sent: Phase;
  readonly answered: Phase;
  readonly status: number | "no answer in time";
  readonly errCode: string | undefined;
  readonly customerId: string | undefined;
}

/**
 * Clients that keep creating customers against the replicas, one request at a time each, until stopped; each
 * outcome notes the phase of the server when it was sent and when it was answered.
 */
function createLoad(targets: readonly Replica[], clients: number, phase: () => Phase) {
  const outcomes: Outcome[] = [];
  let running = true;
  const once = async (replica: Replica): Promise<void> => {
    const sent = phase();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"no answer in time">((resolve) => {
      timer = setTimeout(() => resolve("no answer in time"), CLIENT_TIMEOUT_MS);
    });
    const request = replica.api().post("/cms/api/v1/customer/create", {
      client_reference_id: unique("load"),
      full_name: "Asha Verma",
      alpha_3_country_code: "IND",
    });
    const answer = await Promise.race([request, late]).finally(() => clearTimeout(timer));
    outcomes.push(
      answer === "no answer in time"
        ? { sent, answered: phase(), status: answer, errCode: undefined, customerId: undefined }
        : {
            sent,
            answered: phase(),
            status: answer.status,
            errCode: answer.body.err_code,
            customerId: answer.body.data?.id,
          },
    );
  };
  const loops = Array.from({ length: clients }, async (_, i) => {
    while (running) await once(targets[i % targets.length]!);
  });
  return {
    outcomes,
    count: (where: (o: Outcome) => boolean) => outcomes.filter(where).length,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

// Runs last: it kills this file's server (no other file uses it).
describe("PostgreSQL restarted under load", () => {
  it("answers 503 SYS_SERVICE_UNAVAILABLE while the server is down, and keeps every create it acknowledged", async () => {
    let phase: Phase = "up";
    const load = createLoad(replicas.slice(0, 2), 8, () => phase);
    try {
      await waitFor(() => load.count((o) => o.status === 200) >= 20, "creates before the kill", 20_000);
      server.kill();
      phase = "down";
      await waitFor(
        () => load.count((o) => o.sent === "down" && o.answered === "down") >= 24,
        "answers while down",
        15_000,
      );
    } finally {
      server.start();
      phase = "restarted";
    }
    await waitFor(
      () => load.count((o) => o.sent === "restarted" && o.status === 200) >= 20,
      "creates after the restart",
      20_000,
    );
    await load.stop();
    const whileDown = load.outcomes.filter((o) => o.sent === "down" && o.answered === "down");
    expect(new Set(whileDown.map((o) => `${o.status} ${o.errCode}`))).toEqual(new Set(["503 SYS_SERVICE_UNAVAILABLE"]));
    // Around the kill and the restart a request may go either way, but only ever as created or as 503.
    expect(new Set(load.outcomes.map((o) => o.status))).toEqual(new Set([200, 503]));
    const acknowledged = load.outcomes.filter((o) => o.status === 200).map((o) => o.customerId!);
    const api = replicas[2]!.api();
    const missing = [];
    for (const id of acknowledged) if ((await api.get(`/cms/api/v1/customer/${id}`)).status !== 200) missing.push(id);
    expect(missing).toEqual([]);
  }, 60_000);
});
