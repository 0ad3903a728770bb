// The Records view (a kind, or every kind for a search; a search by ID or client_reference_id; a page of rows
// newest first, each with its name and creation date) and one record's page (the record as the API shows it, its events, and "move to a status" with its reason fields).
import { failureText, get, post } from "./api.js";
import { badge, dateTime, field, fill, h } from "./dom.js";
import { eventCard } from "./events.js";

const PER_PAGE = 25;
/** The kind select's value for a search across every kind. */
const ALL = "all";
const remembered = { kind: "customers", q: "", page: 1, open: false };

const recordLink = (kind, id) => `#/record/${kind}/${encodeURIComponent(id)}`;

function recordRow(session, row, all) {
  const kind = session.kinds.find((k) => k.name === row.kind)?.label ?? row.kind;
  return h(
    "tr",
    null,
    h("td", { "data-label": "ID" }, h("a", { href: recordLink(row.kind, row.id) }, row.id)),
    all ? h("td", { "data-label": "Kind" }, kind) : null,
    h("td", { "data-label": "Name" }, row.name ?? ""),
    h("td", { "data-label": "client_reference_id" }, row.client_reference_id ?? ""),
    h("td", { "data-label": "Status" }, badge(row.status)),
    h("td", { "data-label": "Created" }, dateTime(row.created_at)),
  );
}

function kindSelect(session, kind) {
  return h(
    "select",
    { name: "kind" },
    h("option", { value: ALL, selected: kind === ALL }, "All kinds (search)"),
    session.kinds.map((k) => h("option", { value: k.name, selected: k.name === kind }, k.label)),
  );
}

const columns = (all) => ["ID", ...(all ? ["Kind"] : []), "Name", "client_reference_id", "Status", "Created"];

/**
 * The Records view searching every kind for `id` (a request log's link): the record itself when one has that ID.
 */
export function findView(container, session, id) {
  Object.assign(remembered, { kind: ALL, q: id, page: 1, open: true });
  return recordsView(container, session);
}

/** The Records view. */
export function recordsView(container, session) {
  const state = remembered;
  const search = h("input", { type: "search", name: "q", value: state.q, autocomplete: "off" });
  const kinds = kindSelect(session, state.kind);
  const body = h("tbody");
  const caption = h("caption");
  const pager = h("nav", { class: "pager", "aria-label": "Record pages" });
  const form = h(
    "form",
    { class: "toolbar", role: "search" },
    field("Kind", kinds),
    field("ID or client_reference_id", search),
    h("button", { type: "submit" }, "Search"),
  );
  const head = h("tr");
  const table = h("table", { class: "records" }, caption, h("thead", null, head), body);
  fill(container, h("h2", null, "Records"), form, h("div", { class: "table-wrap" }, table), pager);

  async function load() {
    const all = state.kind === ALL;
    fill(
      head,
      columns(all).map((t) => h("th", { scope: "col" }, t)),
    );
    if (all && !state.q) {
      fill(caption, "All kinds");
      fill(body, emptyRow("Type an ID or client_reference_id to search every kind.", all));
      return fill(pager);
    }
    const answer = await get("records", { kind: state.kind, q: state.q, page: state.page, per_page: PER_PAGE });
    if (state.open && answer.results.length === 1) {
      state.open = false;
      return location.replace(recordLink(answer.results[0].kind, answer.results[0].id));
    }
    state.open = false;
    const label = all ? "All kinds" : (session.kinds.find((k) => k.name === state.kind)?.label ?? state.kind);
    fill(caption, state.q ? `${label} matching “${state.q}”` : label);
    fill(
      body,
      answer.results.length ? answer.results.map((r) => recordRow(session, r, all)) : emptyRow("No records.", all),
    );
    pagerOf(answer);
  }
  const emptyRow = (text, all) => h("tr", null, h("td", { colspan: columns(all).length }, text));
  function pagerOf(answer) {
    const last = Math.max(1, Math.ceil(answer.count / PER_PAGE));
    const go = (to) => () => {
      state.page = to;
      load();
    };
    fill(
      pager,
      h("button", { type: "button", disabled: state.page <= 1, onClick: go(state.page - 1) }, "Previous"),
      ` Page ${state.page} of ${last} (${answer.count.toLocaleString()} records) `,
      h("button", { type: "button", disabled: state.page >= last, onClick: go(state.page + 1) }, "Next"),
    );
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    Object.assign(state, { kind: kinds.value, q: search.value.trim(), page: 1 });
    load();
  });
  kinds.addEventListener("change", () => {
    Object.assign(state, { kind: kinds.value, q: "", page: 1 });
    search.value = "";
    load();
  });
  load();
  return { refresh: load };
}

/** The inputs of a status's reason fields: a select where the catalog lists values, text otherwise. */
function reasonInputs(fields) {
  return fields.map((f) => {
    const name = f.name;
    const control = f.values
      ? h(
          "select",
          { name },
          h("option", { value: "" }, "(default)"),
          f.values.map((v) => h("option", { value: v }, v)),
        )
      : h("input", { type: name === "rfi_link" ? "url" : "text", name, autocomplete: "off" });
    return field(name, control);
  });
}

/** The "move to a status" form of a record whose kind the control API moves. */
function moveForm(detail, meta, moved) {
  const statuses = meta.statuses;
  const select = h(
    "select",
    { name: "status" },
    statuses.map((s) => h("option", { value: s, selected: s === detail.status }, s)),
  );
  const reasons = h("div", { class: "reasons" });
  const result = h("p", { class: "result", role: "status" });
  const showReasons = () => fill(reasons, reasonInputs(meta.reasons[select.value] ?? []));
  let touched = false;
  select.addEventListener("change", () => {
    touched = true;
    showReasons();
  });
  showReasons();
  const form = h(
    "form",
    { class: "move" },
    field("New status", select),
    reasons,
    h("button", { type: "submit" }, "Move"),
    result,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = Object.fromEntries([...new FormData(form)].filter(([, v]) => v !== ""));
    try {
      const answer = await post(`records/${detail.kind}/${encodeURIComponent(detail.id)}/transition`, body);
      const event = answer.data.event;
      fill(
        result,
        `${answer.message}. `,
        event ? `Event ${event.body.type} ${event.body.event} (${event.id}).` : "No event.",
      );
      moved();
    } catch (error) {
      fill(result, failureText(error));
    }
  });
  const section = h(
    "section",
    { "aria-labelledby": "move-title" },
    h("h3", { id: "move-title" }, "Move to a status"),
    form,
  );
  // The status offered first follows the record while the reader has not picked one.
  const follow = (status) => {
    if (touched || select.value === status) return;
    select.value = status;
    showReasons();
  };
  return { section, follow };
}

/** One record's page: #/record/<kind>/<id>. */
export function recordView(container, session, kind, id) {
  const summary = h("div");
  const events = h("section", { "aria-labelledby": "events-title" });
  let move;
  async function load() {
    const detail = await get(`records/${kind}/${encodeURIComponent(id)}`);
    const label = session.kinds.find((k) => k.name === kind)?.label ?? kind;
    fill(
      summary,
      h("p", null, h("a", { href: "#/records" }, "← Records")),
      h("h2", null, `${label}: `, h("code", null, detail.id)),
      h("p", null, "Status: ", badge(detail.status)),
      h(
        "details",
        { open: true },
        h("summary", null, "The record as the API shows it"),
        h("pre", null, JSON.stringify(detail.record, null, 2)),
      ),
    );
    if (detail.transition && !move) {
      move = moveForm(detail, session.transitions[detail.transition], load);
      summary.after(move.section);
    }
    move?.follow(detail.status);
    fill(
      events,
      h("h3", { id: "events-title" }, "Events"),
      detail.events.length ? detail.events.map((e) => eventCard(e, load)) : h("p", null, "No events for this record."),
    );
  }
  fill(container, summary, events);
  load().catch((error) => fill(summary, h("p", { role: "alert" }, failureText(error))));
  return { refresh: () => load().catch(() => {}) };
}
