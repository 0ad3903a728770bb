// Webhook faults over real HTTP, with a real receiver: out-of-order, delayed and duplicate deliveries of an
// event, each shown in the event log on the delivery it changed.
import { describe, expect, it } from "vitest";
import { Api, createCustomer, startReceiver, startSandbox } from "../helpers.js";
import { arm } from "./fault-helpers.js";

async function withReceiver() {
  const sandbox = await startSandbox({ autoProgressMs: false });
  const api = new Api(sandbox);
  const receiver = await startReceiver();
  await api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
  const customer = await createCustomer(api);
  const move = (status: string) => api.ok("POST", `/_sandbox/customers/${customer.id}/transition`, { status });
  return { sandbox, api, receiver, customer, move };
}

describe("webhook faults", () => {
  it("OUT_OF_ORDER delivers a record's later event before the held one, and logs which event went first", async () => {
    const { sandbox, api, receiver, move } = await withReceiver();
    await arm(api, { event_type: "CUSTOMER", fault: "OUT_OF_ORDER", delay_ms: 60_000 });
    const held = await move("VERIFIED");
    const later = await move("FAILED");
    await sandbox.deliveriesSettled();
    expect(receiver.deliveries.map((d) => d.body.event)).toEqual(["FAILED", "VERIFIED"]);
    const events = (await api.ok("GET", "/_sandbox/events")).results;
    const first = events.find((e: { id: string }) => e.id === held.event.id);
    expect(first.deliveries).toMatchObject([
      { reason: "initial", fault: "OUT_OF_ORDER", delay_ms: 60_000, released_after_event: later.event.id },
    ]);
  });

  it("OUT_OF_ORDER delivers the held event when its hold runs out and no later event came", async () => {
    const { sandbox, api, receiver, move } = await withReceiver();
    await arm(api, { event_type: "CUSTOMER", fault: "OUT_OF_ORDER", delay_ms: 30 });
    const held = await move("VERIFIED");
    await sandbox.deliveriesSettled();
    expect(receiver.deliveries.map((d) => d.body.event)).toEqual(["VERIFIED"]);
    const [event] = (await api.ok("GET", "/_sandbox/events")).results;
    expect(event.id).toBe(held.event.id);
    expect(event.deliveries[0]).toMatchObject({
      fault: "OUT_OF_ORDER",
      released_after_event: null,
      state: "delivered",
    });
  });

  it("DELAYED_DELIVERY starts the delivery no sooner than delay_ms after the event", async () => {
    const { sandbox, api, receiver, move } = await withReceiver();
    await arm(api, { event_type: "*", fault: "DELAYED_DELIVERY", delay_ms: 150 });
    const started = Date.now();
    await move("VERIFIED");
    await sandbox.deliveriesSettled();
    expect(receiver.deliveries).toHaveLength(1);
    expect(receiver.deliveries[0]!.at - started).toBeGreaterThanOrEqual(149);
    const [event] = (await api.ok("GET", "/_sandbox/events")).results;
    expect(event.deliveries).toMatchObject([{ fault: "DELAYED_DELIVERY", delay_ms: 150, state: "delivered" }]);
  });

  it("DUPLICATE_DELIVERY delivers the event twice, the copy marked with the fault", async () => {
    const { sandbox, api, receiver, move } = await withReceiver();
    await arm(api, { fault: "DUPLICATE_DELIVERY" });
    await move("VERIFIED");
    await move("FAILED");
    await sandbox.deliveriesSettled();
    expect(receiver.deliveries.map((d) => d.body.event).sort()).toEqual(["FAILED", "VERIFIED", "VERIFIED"]);
    const [first, second] = (await api.ok("GET", "/_sandbox/events")).results;
    expect(first.deliveries.map((d: any) => [d.reason, d.fault])).toEqual([
      ["initial", undefined],
      ["duplicate", "DUPLICATE_DELIVERY"],
    ]);
    expect(second.deliveries).toHaveLength(1);
  });

  it("fires only on events of its event type, counting down per event", async () => {
    const { sandbox, api, receiver, move } = await withReceiver();
    await arm(api, { event_type: "PAYOUT", fault: "DUPLICATE_DELIVERY", times: 2 });
    await move("VERIFIED");
    await sandbox.deliveriesSettled();
    expect(receiver.deliveries).toHaveLength(1);
    expect((await api.ok("GET", "/_sandbox/faults")).armed).toMatchObject([{ event_type: "PAYOUT", remaining: 2 }]);
  });

  it("records each webhook fault that fired with its event", async () => {
    const { sandbox, api, move } = await withReceiver();
    await arm(api, { event_type: "CUSTOMER", fault: "DUPLICATE_DELIVERY" });
    const moved = await move("VERIFIED");
    await sandbox.deliveriesSettled();
    const { fired } = await api.ok("GET", "/_sandbox/faults");
    expect(fired.results).toMatchObject([
      { fault: "DUPLICATE_DELIVERY", source: "plan", event_id: moved.event.id, event_type: "CUSTOMER" },
    ]);
  });
});
