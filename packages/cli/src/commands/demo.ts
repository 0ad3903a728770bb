// exchange-kit demo: the whole integration against an embedded sandbox, step by step, as a fintech backend
// would run it: the typed client for calls, a webhook-verify receiver for events. Exits 0 only if every step
// behaved as the interface document says.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createExchangeClient, type ExchangeClient } from "@exchange-kit/client";
import { createSandbox, type Sandbox } from "@exchange-kit/sandbox";
import { createDeduplicator, memoryStore, type ReceivedWebhookEvent } from "@exchange-kit/webhook-verify";
import { createNodeWebhookHandler } from "@exchange-kit/webhook-verify/node";
import type { Output } from "../output.js";
import type { Command } from "./command.js";

const EVENT_TIMEOUT_MS = 10_000;

/** The webhook receiver of the demo: verified, deduplicated events, and how often each one reached the handler. */
class Receiver {
  readonly handled = new Map<string, number>();
  private readonly waiters: { key: string; resolve: (e: ReceivedWebhookEvent) => void }[] = [];
  private readonly seen = new Map<string, ReceivedWebhookEvent>();

  onEvent = (event: ReceivedWebhookEvent): void => {
    const key = `${event.type} ${event.event} ${event.id}`;
    this.handled.set(key, (this.handled.get(key) ?? 0) + 1);
    this.seen.set(key, event);
    for (const w of this.waiters.filter((w) => w.key === key)) w.resolve(event);
  };

  /** Resolves with the event once the handler has run for it. */
  waitFor(type: string, event: string, id: string): Promise<ReceivedWebhookEvent> {
    const key = `${type} ${event} ${id}`;
    const done = this.seen.get(key);
    if (done) return Promise.resolve(done);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${key} event within ${EVENT_TIMEOUT_MS} ms`)),
        EVENT_TIMEOUT_MS,
      );
      this.waiters.push({ key, resolve: (e) => (clearTimeout(timer), resolve(e)) });
    });
  }
}

interface Trace {
  step<T>(title: string, run: () => Promise<T>, describe?: (value: T) => string): Promise<T>;
  failures: number;
  steps: number;
}

function trace(out: Output): Trace {
  const t: Trace = {
    failures: 0,
    steps: 0,
    async step(title, run, describe) {
      const started = performance.now();
      t.steps++;
      try {
        const value = await run();
        const ms = (performance.now() - started).toFixed(0).padStart(5);
        const detail = describe ? describe(value) : "";
        out.result(
          { step: title, ok: true, ms: Number(ms), detail },
          `${out.green("✓")} ${title.padEnd(54)} ${out.dim(`${ms} ms`)}  ${detail}`,
        );
        return value;
      } catch (error) {
        t.failures++;
        const ms = (performance.now() - started).toFixed(0).padStart(5);
        const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        out.result(
          { step: title, ok: false, ms: Number(ms), error: message },
          `${out.red("✗")} ${title.padEnd(54)} ${out.dim(`${ms} ms`)}  ${out.red(message)}`,
        );
        throw error;
      }
    },
  };
  return t;
}

/** additional_info as the KYC configuration asks for it: every required field, then more until min_required. */
function additionalInfoFor(config: { additional_info_required: unknown }): Record<string, string> {
  const wanted = config.additional_info_required as { options?: string[]; rules?: { min_required?: number } } & Record<
    string,
    unknown
  >;
  const sample: Record<string, string> = {
    occupation: "Software engineer",
    annual_income: "1200000",
    source_of_funds: "Salary",
  };
  const options = wanted.options ?? [];
  const required = options.filter((name) => (wanted[name] as { required?: boolean } | undefined)?.required === true);
  const chosen = [...required, ...options.filter((name) => !required.includes(name))].slice(
    0,
    Math.max(required.length, wanted.rules?.min_required ?? 0),
  );
  return Object.fromEntries(chosen.map((name) => [name, sample[name] ?? "Provided"]));
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

async function flow(client: ExchangeClient, sandbox: Sandbox, receiver: Receiver, t: Trace): Promise<void> {
  const run = Date.now().toString(36);
  const customer = await t.step(
    "create customer",
    () =>
      client.customers.create({
        client_reference_id: `demo-${run}`,
        alpha_3_country_code: "IND",
        full_name: "Asha Verma",
        email: `asha.${run}@example.com`,
        phone: "9876543210",
      }),
    (c) => {
      expect(c.status === "UNVERIFIED", `status ${c.status}, expected UNVERIFIED`);
      return `${c.id} ${c.status}`;
    },
  );

  const config = await t.step(
    "fetch KYC configuration",
    () => client.kyc.getConfiguration(customer.id),
    (c) =>
      `documents ${c.supported_document_types.join(", ")}; tax number ${c.is_tax_required ? "required" : "optional"}`,
  );

  const documentType = config.supported_document_types.includes("PAN") ? "PAN" : config.supported_document_types[0]!;
  await t.step(
    "submit KYC",
    () =>
      client.kyc.addData({
        customer_id: customer.id,
        full_name: "Asha Verma",
        phone: "9876543210",
        full_address: "12 MG Road, Bengaluru 560001",
        dob: "31-01-1990",
        registered_date: "01-02-2020",
        document_type: documentType,
        document_details: { document_number: "ABCDE1234F", additional_data: {} },
        document_front_image_url: "https://files.example.com/pan-front.png",
        document_back_image_url: "https://files.example.com/pan-back.png",
        selfie_url: "https://files.example.com/selfie.png",
        additional_info: additionalInfoFor(config),
        ...(config.is_tax_required ? { tax_number: "ABCDE1234F" } : {}),
      }),
    (r) => {
      expect(r.status === "PROCESSING", `status ${r.status}`);
      return `${documentType}, ${r.status}`;
    },
  );

  await t.step(
    "receive CUSTOMER VERIFIED (signed webhook)",
    () => receiver.waitFor("CUSTOMER", "VERIFIED", customer.id),
    (e) => `at ${e.timestamp}`,
  );

  const added = await t.step(
    "add bank account",
    () =>
      client.banks.create({
        customer_id: customer.id,
        bank_account_type: "ACCOUNT_DETAILS",
        identifiers: { account_number: "50100123456789", ifsc: "HDFC0001234" },
      }),
    (b) => `${b.id} ${b.bank_account_status}`,
  );

  await t.step(
    "receive BANK VERIFIED (signed webhook)",
    () => receiver.waitFor("BANK", "VERIFIED", added.id),
    (e) => `at ${e.timestamp}`,
  );

  const payinQuote = await t.step(
    "payin: quote 25000.00 INR",
    () =>
      client.payins.createQuotation({
        customer_id: customer.id,
        bank_id: added.id,
        asset: "usdt",
        fiat: "INR",
        network: "tron",
        payment_method: "IMPS",
        wallet_address: "TXYZ1234567890abcdefghijkLMNOPQRS",
        sending_amount: "25000.00",
        risk_parameters: { ip_address: "203.0.113.7" },
      }),
    (q) => {
      const v = q as Record<string, unknown>;
      expect(typeof v.receiving_amount === "string", "amounts must be decimal strings");
      return `${v.sending_amount} INR -> ${v.receiving_amount} USDT, expires ${v.expiry_time}`;
    },
  );

  const payinRef = `demo-payin-${run}`;
  await t.step(
    "payin: initiate with the bank reference (UTR)",
    () =>
      client.payins.initiate({
        quotation_id: (payinQuote as { id: string }).id,
        client_reference_id: payinRef,
        transaction_reference_id: `UTR${run.toUpperCase().padEnd(12, "0")}`,
      }),
    () => payinRef,
  );
  const payin = await t.step(
    "payin: find the order by client_reference_id",
    async () => {
      for await (const order of client.payins.history.all({ per_page: 100 }))
        if (order.client_reference_id === payinRef) return order;
      throw new Error(`payin ${payinRef} is not in the history`);
    },
    (p) => `${p.id} ${p.status}`,
  );
  await t.step(
    "receive PAYIN SUCCESS (signed webhook)",
    () => receiver.waitFor("PAYIN", "SUCCESS", payin.id),
    (e) => `UTR ${(e.metadata as Record<string, unknown>).transaction_reference_id}`,
  );

  const payoutQuote = await t.step(
    "payout: quote 100 USDT",
    () =>
      client.payouts.createQuotation({
        asset: "USDT",
        fiat: "INR",
        network: "tron",
        payment_method: "IMPS",
        customer_id: customer.id,
        bank_id: added.id,
        risk_parameters: { ip_address: "203.0.113.7" },
        sending_amount: "100",
      }),
    (q) => `${q.sending_amount} USDT -> ${q.receiving_amount} INR, deposit to ${q.wallet_address}`,
  );

  const payoutRef = `demo-payout-${run}`;
  await t.step(
    "payout: initiate (quotation checked for expiry first)",
    () => client.payouts.initiate({ client_reference_id: payoutRef }, { quotation: payoutQuote }),
    () => payoutRef,
  );
  const payout = await t.step(
    "payout: find the order by client_reference_id",
    async () => {
      for await (const order of client.payouts.history.all({ per_page: 100 }))
        if (order.client_reference_id === payoutRef) return order;
      throw new Error(`payout ${payoutRef} is not in the history`);
    },
    (p) => `${p.id} ${p.status}`,
  );
  await t.step(
    "payout: poll until final (PROCESSING sends no event)",
    () => client.payouts.waitFor(payout.id, { timeoutMs: EVENT_TIMEOUT_MS }),
    (p) => {
      expect(p.status === "SUCCESS", `status ${p.status}`);
      return `${p.status}, UTR ${p.utr ?? "-"}`;
    },
  );
  const payoutEvent = await t.step(
    "receive PAYOUT SUCCESS (signed webhook)",
    () => receiver.waitFor("PAYOUT", "SUCCESS", payout.id),
    (e) => `client_reference_id ${(e.metadata as Record<string, unknown>).client_reference_id}`,
  );

  await t.step(
    "redeliver PAYOUT SUCCESS: answered 200, handled once",
    async () => {
      const logged = sandbox
        .events()
        .find(
          (e) =>
            (e.body as { id?: string; event?: string }).id === payout.id &&
            (e.body as { event?: string }).event === "SUCCESS",
        );
      expect(logged !== undefined, "the sandbox has no log entry for the payout event");
      const before = logged!.deliveries.length;
      await client.request("POST", `/_sandbox/events/${logged!.id}/redeliver`, { body: {} });
      await sandbox.deliveriesSettled();
      const after = sandbox.events().find((e) => e.id === logged!.id)!;
      const last = after.deliveries[after.deliveries.length - 1];
      const answered = last?.attempts[last.attempts.length - 1]?.status_code;
      expect(after.deliveries.length > before && last?.reason === "redelivery", "the event was not delivered again");
      expect(
        last?.state === "delivered" && answered === 200,
        `the receiver answered ${answered ?? "nothing"} to the duplicate`,
      );
      const count = receiver.handled.get(`PAYOUT SUCCESS ${payoutEvent.id}`);
      expect(count === 1, `the handler ran ${count} times`);
      return after.deliveries.length;
    },
    (n) => `${n} deliveries, handler ran once (deduplicated on id + event)`,
  );

  await t.step(
    "page through the payin history (per_page 10)",
    async () => {
      for (let i = 0; i < 10; i++) {
        const q = (await client.payins.createQuotation({
          customer_id: customer.id,
          bank_id: added.id,
          asset: "usdt",
          fiat: "INR",
          network: "tron",
          payment_method: "IMPS",
          wallet_address: "TXYZ1234567890abcdefghijkLMNOPQRS",
          sending_amount: `${1000 + i}.00`,
          risk_parameters: { ip_address: "203.0.113.7" },
        })) as { id: string };
        await client.payins.initiate({
          quotation_id: q.id,
          client_reference_id: `${payinRef}-${i}`,
          transaction_reference_id: `UTR${run.toUpperCase()}${i}`.padEnd(12, "0"),
        });
      }
      let orders = 0;
      const ids = new Set<string>();
      for await (const order of client.payins.history.all({ per_page: 10 })) {
        orders++;
        ids.add(order.id);
      }
      expect(orders === ids.size, "a page repeated an order");
      expect(orders >= 11, `only ${orders} orders in the history`);
      return orders;
    },
    (n) => `${n} orders over ${Math.ceil(n / 10)} pages, none repeated`,
  );
}

export const demo: Command = {
  name: "demo",
  summary: "run the whole integration against an embedded sandbox and print a trace",
  usage: `exchange-kit demo [--json]
  starts the sandbox and a webhook receiver on 127.0.0.1, then: customer, KYC, bank account, payin, payout,
  their signed webhooks (one delivered twice and deduplicated), and the history; exits 0 only if all behaved`,
  options: {},
  async run({ out }) {
    const t = trace(out);
    out.line(out.bold("exchange-kit demo: a complete integration against the local sandbox\n"));
    let sandbox: Sandbox | undefined;
    let server: Server | undefined;
    const started = performance.now();
    try {
      sandbox = await t.step(
        "start the sandbox (embedded, in memory)",
        () => createSandbox({ autoProgressMs: 100, webhookRetry: { initialDelayMs: 100 } }),
        (s) => s.url,
      );
      const org = sandbox.organizations[0]!;
      const receiver = new Receiver();
      const handler = createNodeWebhookHandler(
        {
          apiKey: org.apiKey,
          apiSecret: org.apiSecret,
          deduplicator: createDeduplicator({ store: memoryStore({ maxEntries: 10_000 }), ttlSeconds: 3600 }),
        },
        receiver.onEvent,
      );
      server = await t.step(
        "start the webhook receiver (webhook-verify)",
        async () => {
          const s = createServer(handler);
          await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
          return s;
        },
        (s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/webhooks`,
      );
      const client = createExchangeClient({ baseUrl: sandbox.url, apiKey: org.apiKey, apiSecret: org.apiSecret });
      const webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
      await t.step(
        "register the webhook URL",
        () => client.organization.registerWebhook({ webhook_url: webhookUrl }),
        () => webhookUrl,
      );
      await flow(client, sandbox, receiver, t);
    } catch {
      // the failing step was printed; fall through to the summary
    } finally {
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
      await sandbox?.close();
    }
    const total = ((performance.now() - started) / 1000).toFixed(2);
    if (t.failures > 0) {
      out.result(
        { ok: false, steps: t.steps, seconds: Number(total) },
        out.red(`\nthe demo failed at step ${t.steps} (${total} s)`),
      );
      return 1;
    }
    out.result(
      { ok: true, steps: t.steps, seconds: Number(total) },
      out.green(`\nall ${t.steps} steps behaved as the interface document says (${total} s)`),
    );
    out.line(
      out.dim(
        "\nNext, with the installed command (or `npx @exchange-kit/cli <command>`): run the sandbox with\n" +
          "`exchange-kit sandbox`, forward its webhooks to your receiver with `exchange-kit listen --forward-to URL`,\n" +
          "and fire events with `exchange-kit trigger TYPE EVENT --id ID`. Packages: `npm install @exchange-kit/client`\n" +
          "and `npm install @exchange-kit/webhook-verify`; guides: https://github.com/exchange-kit/exchange-kit#readme",
      ),
    );
    return 0;
  },
};
