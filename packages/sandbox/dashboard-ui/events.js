// Webhook events as the dashboard shows them: the event, each delivery with every attempt (answer code,
// latency, the start of the receiver's answer, error, next retry) and a Redeliver button; and the Events view, newest first, paged.
import { failureText, get, post } from "./api.js";
import { badge, fill, h, when } from "./dom.js";

/** The record kind (as the dashboard names it) of each event type, to link an event to its record. */
let kindOfType = {};

/** Takes the kinds' event types from the session (the server reads them from the spec's catalog). */
export function learnKinds(transitions) {
  kindOfType = Object.fromEntries(Object.entries(transitions).map(([kind, meta]) => [meta.type, kind]));
}

/** The receiver's answer body as kept (first 1 KB, secrets redacted), as text in a scrolling block; "" when none. */
function answerBody(body) {
  if (body === null || body === undefined || body === "") return "";
  return h("pre", { class: "answer-body" }, body);
}

function attemptRow(attempt) {
  return h(
    "tr",
    null,
    h("td", { "data-label": "Attempt" }, attempt.attempt),
    h("td", { "data-label": "At" }, when(attempt.at)),
    h("td", { "data-label": "Answer" }, attempt.status_code === null ? "no answer" : badge(attempt.status_code)),
    h("td", { "data-label": "Latency" }, `${attempt.duration_ms} ms`),
    h("td", { "data-label": "Receiver's body" }, answerBody(attempt.response_body)),
    h("td", { "data-label": "Error" }, attempt.error ?? ""),
  );
}

function deliveryTable(delivery, index) {
  const next =
    delivery.state === "pending" && delivery.next_attempt_at ? `, next attempt ${when(delivery.next_attempt_at)}` : "";
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { class: "attempts" },
      h(
        "caption",
        null,
        `Delivery ${index + 1} (${delivery.reason}) to ${delivery.url ?? "no webhook URL"}: `,
        badge(delivery.state),
        next,
      ),
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          ["Attempt", "At", "Answer", "Latency", "Receiver's body", "Error"].map((t) => h("th", { scope: "col" }, t)),
        ),
      ),
      h("tbody", null, delivery.attempts.map(attemptRow)),
    ),
  );
}

/** One event with its deliveries and a Redeliver button; `changed` runs after a redelivery starts. */
export function eventCard(event, changed) {
  const status = h("p", { class: "result", role: "status" });
  const redeliver = h("button", { type: "button" }, "Redeliver");
  redeliver.addEventListener("click", async () => {
    redeliver.disabled = true;
    try {
      const answer = await post(`events/${encodeURIComponent(event.id)}/redeliver`);
      fill(status, `Redelivery started (delivery ${answer.data.delivery.id}).`);
      changed?.();
    } catch (error) {
      fill(status, failureText(error));
    } finally {
      redeliver.disabled = false;
    }
  });
  const { type, event: name, id } = event.body;
  const kind = kindOfType[type];
  return h(
    "article",
    { class: "event", "data-event-id": event.id },
    h("h3", null, `${type} ${name}`),
    h(
      "p",
      { class: "meta" },
      kind ? h("a", { href: `#/record/${kind}/${id}` }, id) : id,
      ` · ${when(event.created_at)} · event ${event.id}`,
    ),
    Object.keys(event.body.metadata).length > 0
      ? h("pre", { class: "metadata", "aria-label": "Metadata" }, JSON.stringify(event.body.metadata, null, 2))
      : null,
    event.deliveries.map(deliveryTable),
    h("div", { class: "actions" }, redeliver, status),
  );
}

/** The Events view: the receiver URL, then the events, newest first, 20 a page. */
export function eventsView(container) {
  let page = 1;
  const list = h("div", { class: "events" });
  const url = h("p");
  const pager = h("nav", { class: "pager", "aria-label": "Event pages" });
  fill(container, h("h2", null, "Events"), url, list, pager);
  async function load() {
    const answer = await get("events", { page, per_page: 20 });
    fill(url, "Receiver URL: ", answer.webhook_url ? h("code", null, answer.webhook_url) : "none registered");
    fill(list, answer.results.length ? answer.results.map((e) => eventCard(e, load)) : h("p", null, "No events yet."));
    const last = Math.max(1, Math.ceil(answer.count / 20));
    const go = (to) => () => {
      page = to;
      load();
    };
    fill(
      pager,
      h("button", { type: "button", disabled: page <= 1, onClick: go(page - 1) }, "Newer"),
      ` Page ${page} of ${last} (${answer.count} events) `,
      h("button", { type: "button", disabled: page >= last, onClick: go(page + 1) }, "Older"),
    );
  }
  load();
  return { refresh: load };
}
