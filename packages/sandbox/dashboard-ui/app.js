// The dashboard: a hash route per view (#/records, #/record/<kind>/<id>, #/find/<id>, #/events, #/requests,
// #/controls), one
// server-sent event stream that refreshes the view on screen when the organization's records, events or
// requests change.
import { failureText, get } from "./api.js";
import { fill, h } from "./dom.js";
import { controlsView } from "./controls.js";
import { eventsView, learnKinds } from "./events.js";
import { findView, recordsView, recordView } from "./records.js";
import { requestsView } from "./requests.js";

const main = document.getElementById("main");
const live = document.getElementById("live");
let session;
let current;
let pending;

function show() {
  const [, view = "records", ...rest] = location.hash.split("/");
  for (const link of document.querySelectorAll("nav a")) {
    const here =
      link.dataset.view === view || ((view === "record" || view === "find") && link.dataset.view === "records");
    if (here) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const container = h("div", { class: "view" });
  fill(main, container);
  if (view === "record") current = recordView(container, session, rest[0], decodeURIComponent(rest[1] ?? ""));
  else if (view === "find") current = findView(container, session, decodeURIComponent(rest[0] ?? ""));
  else if (view === "events") current = eventsView(container);
  else if (view === "requests") current = requestsView(container);
  else if (view === "controls") current = controlsView(container);
  else current = recordsView(container, session);
}

/** Live updates: the stream says something changed; the view reloads what it shows (at most every 300 ms). */
function connect() {
  const stream = new EventSource("/_dashboard/api/stream");
  stream.addEventListener("open", () => fill(live, "Live"));
  stream.addEventListener("error", () => fill(live, "Reconnecting…"));
  stream.addEventListener("update", () => {
    if (pending) return;
    pending = setTimeout(() => {
      pending = undefined;
      current?.refresh();
    }, 300);
  });
}

async function start() {
  try {
    session = await get("session");
    learnKinds(session.transitions);
  } catch (error) {
    fill(main, h("p", { role: "alert" }, failureText(error)));
    return;
  }
  window.addEventListener("hashchange", () => {
    show();
    main.focus();
  });
  show();
  connect();
}

start();
