// The Requests view: the request log, newest first, with filters (status, err_code, operationId, a date range);
// each request opens to its bodies and links to the records it names.
import { failureText, get } from "./api.js";
import { badge, dateTime, field, fill, h, pretty } from "./dom.js";

const PAGE = 50;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The members of a JSON text named `id` or `…_id` that hold a UUID, as [name, id] (a capped body may not parse). */
function idMembers(text) {
  const found = [];
  const visit = (value, name) => {
    if (
      typeof value === "string" &&
      (name === "id" || name.endsWith("_id")) &&
      new RegExp(`^${UUID.source}$`, "i").test(value)
    )
      found.push([name, value.toLowerCase()]);
    else if (value && typeof value === "object")
      for (const [key, member] of Object.entries(value)) visit(member, Array.isArray(value) ? name : key);
  };
  try {
    visit(JSON.parse(text), "");
  } catch {
    // Not JSON, or cut short by the log's cap: its IDs are still linked from the path.
  }
  return found;
}

/**
 * The records a request names: the UUIDs in its path, then the `id` / `…_id` members of its request and response
 * bodies, each once, as [label, id].
 */
export function namedRecords(entry) {
  const named = new Map();
  for (const id of entry.path.match(UUID) ?? []) named.set(id.toLowerCase(), "path");
  for (const [name, id] of [...idMembers(entry.request.text), ...idMembers(entry.response.text)])
    if (!named.has(id)) named.set(id, name);
  return [...named].map(([id, label]) => [label, id]);
}

function recordLinks(entry) {
  const named = namedRecords(entry);
  if (named.length === 0) return null;
  return h(
    "p",
    { class: "meta links" },
    "Records: ",
    named.map(([label, id], i) => [i > 0 ? ", " : "", h("a", { href: `#/find/${id}` }, `${label} ${id}`)]),
  );
}

function bodyBlock(title, body) {
  const note = body.truncated ? ` (first ${body.text.length} of ${body.bytes} bytes)` : "";
  return [h("h4", null, title, note), h("pre", null, body.text === "" ? "(empty)" : pretty(body.text))];
}

function entryItem(entry) {
  const name = entry.operation_id ?? entry.path;
  return h(
    "li",
    { "data-seq": entry.seq },
    h(
      "details",
      null,
      h(
        "summary",
        null,
        h("span", { class: "time" }, dateTime(entry.at)),
        ` ${entry.method} `,
        h("strong", null, name),
        " ",
        entry.status === 0 ? badge("no answer") : badge(entry.status),
        entry.err_code ? ` ${entry.err_code}` : "",
        ` ${Math.round(entry.latency_ms)} ms`,
        entry.fault ? ` (fault ${entry.fault})` : "",
        entry.replica ? h("span", { class: "replica" }, ` ${entry.replica}`) : "",
      ),
      h("p", { class: "meta" }, `#${entry.seq} · ${entry.method} ${entry.path}${entry.query ? `?${entry.query}` : ""}`),
      recordLinks(entry),
      bodyBlock("Request body", entry.request),
      bodyBlock("Response body", entry.response),
    ),
  );
}

/** A datetime-local value (the reader's local time) as the ISO time the log's since/until take; "" stays "". */
const isoOf = (local) => (local ? new Date(local).toISOString() : "");

export function requestsView(container) {
  const filters = { status: "", err_code: "", operation_id: "", since: "", until: "" };
  const inputs = Object.fromEntries(
    Object.keys(filters).map((name) => [name, h("input", { type: "text", name, autocomplete: "off" })]),
  );
  inputs.status.placeholder = "e.g. 4xx or 404";
  for (const name of ["since", "until"]) Object.assign(inputs[name], { type: "datetime-local", step: "1" });
  const form = h(
    "form",
    { class: "toolbar", role: "search" },
    field("Status", inputs.status),
    field("err_code", inputs.err_code),
    field("operationId", inputs.operation_id),
    field("From", inputs.since),
    field("To", inputs.until),
    h("button", { type: "submit" }, "Filter"),
  );
  const list = h("ol", { class: "requests", reversed: true });
  const more = h("p");
  const error = h("p", { role: "alert" });
  fill(container, h("h2", null, "Requests"), form, error, list, more);

  /** A request opened while its page reloads live stays open: the reload is dropped, as one not started would be. */
  const opened = () => list.querySelector("details[open]") !== null;
  // `live`: a reload the stream asked for. aria-busy: the list is being replaced (screen readers, and tests, wait).
  async function load(before, live = false) {
    list.setAttribute("aria-busy", "true");
    try {
      const page = await get("requests", { ...filters, limit: PAGE, before });
      if (live && opened()) return;
      fill(error);
      if (before === undefined) fill(list);
      list.append(...page.results.map(entryItem));
      const oldest = page.results[page.results.length - 1]?.seq;
      const older = h("button", { type: "button", onClick: () => load(oldest) }, "Older requests");
      fill(more, page.results.length === PAGE && oldest > page.oldest_seq ? older : "");
      if (list.childElementCount === 0) fill(list, h("li", null, "No requests."));
    } catch (caught) {
      fill(error, failureText(caught));
    } finally {
      list.setAttribute("aria-busy", "false");
    }
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    for (const name of Object.keys(filters)) filters[name] = inputs[name].value.trim();
    filters.since = isoOf(filters.since);
    filters.until = isoOf(filters.until);
    load();
  });
  load();
  // Live: only while the newest page is shown and no request is open (reloading would close it).
  return {
    refresh: () => {
      if (!opened() && list.childElementCount <= PAGE) load(undefined, true);
    },
  };
}
