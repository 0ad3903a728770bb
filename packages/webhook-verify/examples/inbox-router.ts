import { createInbox, createWebhookRouter, type InboxContext, memoryInbox } from "@exchange-kit/webhook-verify";

// Each handler's event is typed by what it was registered for; with InboxContext, handlers get { attempt, key }.
export const router = createWebhookRouter<InboxContext>()
  .on("PAYOUT", "SUCCESS", (event) => {
    console.log(`payout ${event.id} paid, UTR ${event.metadata.utr} (${event.metadata.client_reference_id})`);
  })
  .on("PAYOUT", "IN_REVIEW", (event) => {
    if (event.metadata.reason === "Request for information") {
      console.log(`payout ${event.id} needs information: ${event.metadata.rfi_link}`); // a string here
    }
  })
  .on("CUSTOMER", (event, { attempt }) => console.log(`customer ${event.id} is ${event.event} (run ${attempt})`))
  .onUnknown((event) => console.warn(`new kind of event ${event.type} ${event.event}: ${event.unknownReason}`));

// The router is the inbox's handler (memoryInbox for brevity; redisInbox survives a crash).
export const inbox = createInbox({ store: memoryInbox(), handler: router });
