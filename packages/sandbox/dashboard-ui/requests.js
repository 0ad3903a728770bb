// The Requests view: the request log, newest first, with filters; each request opens to its bodies.
import { failureText, get } from "./api.js";
import { badge, field, fill, h, pretty, when } from "./dom.js";

const PAGE = 50;

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
        h("span", { class: "time" }, when(entry.at)),
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
      bodyBlock("Request body", entry.request),
      bodyBlock("Response body", entry.response),
    ),
  );
}

export function requestsView(container) {
  const filters = { status: "", err_code: "", operation_id: "" };
  const inputs = Object.fromEntries(
    Object.keys(filters).map((name) => [name, h("input", { type: "text", name, autocomplete: "off" })]),
  );
  inputs.status.placeholder = "e.g. 4xx or 404";
  const form = h(
    "form",
    { class: "toolbar", role: "search" },
    field("Status", inputs.status),
    field("err_code", inputs.err_code),
    field("operationId", inputs.operation_id),
    h("button", { type: "submit" }, "Filter"),
  );
  const list = h("ol", { class: "requests", reversed: true });
  const more = h("p");
  const error = h("p", { role: "alert" });
  fill(container, h("h2", null, "Requests"), form, error, list, more);

  async function load(before) {
    try {
      const page = await get("requests", { ...filters, limit: PAGE, before });
      fill(error);
      if (before === undefined) fill(list);
      list.append(...page.results.map(entryItem));
      const oldest = page.results[page.results.length - 1]?.seq;
      const older = h("button", { type: "button", onClick: () => load(oldest) }, "Older requests");
      fill(more, page.results.length === PAGE && oldest > page.oldest_seq ? older : "");
      if (list.childElementCount === 0) fill(list, h("li", null, "No requests."));
    } catch (caught) {
      fill(error, failureText(caught));
    }
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    for (const name of Object.keys(filters)) filters[name] = inputs[name].value.trim();
    load();
  });
  load();
  // Live: only while the newest page is shown and no request is open (reloading would close it).
  return {
    refresh: () => {
      if (!list.querySelector("details[open]") && list.childElementCount <= PAGE) load();
    },
  };
}
