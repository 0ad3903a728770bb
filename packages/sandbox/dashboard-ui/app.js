// The dashboard: a hash route per view (#/records, #/record/<kind>/<id>, #/find/<id>, #/events, #/requests,
// #/controls), one server-sent event stream that refreshes the view on screen when the organization's records,
// events or requests change. Opened with a link (#token=…), the page first exchanges the link's token for a
// session and takes the token out of the address bar.
import { enter, failureText, get, signedIn, signOut } from "./api.js";
import { fill, h } from "./dom.js";
import { controlsView } from "./controls.js";
import { eventsView, learnKinds } from "./events.js";
import { follow } from "./live.js";
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
  follow(
    (state) => fill(live, state),
    () => {
      if (pending) return;
      pending = setTimeout(() => {
        pending = undefined;
        current?.refresh();
      }, 300);
    },
  );
}

const NOT_SIGNED_IN =
  "You are not signed in to this dashboard. Open your organization's dashboard link: the sandbox prints one per " +
  "organization when it starts, and `exchange-kit org link NAME` prints a new one.";

/** Signs in with the link's token when the page was opened with one; whether this tab now holds a session. */
async function signIn() {
  const link = /^#token=([\w-]+)$/.exec(location.hash)?.[1];
  if (link) {
    history.replaceState(null, "", `${location.pathname}#/records`);
    await enter(link);
  }
  return signedIn();
}

async function start() {
  try {
    if (!(await signIn())) throw new Error(NOT_SIGNED_IN);
    session = await get("session");
    learnKinds(session.transitions);
  } catch (error) {
    if (error.status === 401) signOut();
    fill(live, "");
    fill(main, h("p", { role: "alert" }, error.status ? failureText(error) : error.message));
    return;
  }
  fill(document.getElementById("organization"), session.organization.name);
  document.title = `Sandbox dashboard · ${session.organization.name}`;
  window.addEventListener("hashchange", () => {
    show();
    main.focus();
  });
  show();
  connect();
}

start();
