// Clock & settings: the organization's sandbox time with "advance", and its runtime settings. Each action
// shows its answer in place (reloading the view would clear it).
import { failureText, get, post } from "./api.js";
import { field, fill, h, when } from "./dom.js";

function clockSection(clock) {
  const now = h("strong", { id: "sandbox-time" }, when(clock.now));
  const offset = h("span", null, ` (offset ${clock.offset_seconds} s)`);
  const seconds = h("input", { type: "number", name: "seconds", min: "1", step: "1", value: "3600", required: true });
  const result = h("p", { class: "result", role: "status" });
  const form = h(
    "form",
    { class: "toolbar" },
    field("Seconds to advance", seconds),
    h("button", { type: "submit" }, "Advance"),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const answer = await post("clock/advance", { seconds: Number(seconds.value) });
      fill(result, `${answer.message}: sandbox time is now ${when(answer.data.now)}.`);
      fill(now, when(answer.data.now));
      fill(offset, ` (offset ${answer.data.offset_seconds} s)`);
    } catch (error) {
      fill(result, failureText(error));
    }
  });
  return h(
    "section",
    { "aria-labelledby": "clock-title" },
    h("h2", { id: "clock-title" }, "Clock"),
    h("p", null, "Sandbox time: ", now, offset),
    form,
    result,
  );
}

function settingsBody(inputs) {
  return {
    auto_progress_ms: inputs.off.checked ? false : Number(inputs.progress.value),
    duplicate_deliveries: inputs.duplicates.checked,
    quotation_ttl_seconds: Number(inputs.ttl.value),
  };
}

function settingsSection(settings) {
  const inputs = {
    progress: h("input", {
      type: "number",
      min: "0",
      step: "1",
      value: settings.auto_progress_ms === false ? 200 : settings.auto_progress_ms,
    }),
    off: h("input", { type: "checkbox", checked: settings.auto_progress_ms === false }),
    duplicates: h("input", { type: "checkbox", checked: settings.duplicate_deliveries }),
    ttl: h("input", { type: "number", min: "1", step: "1", value: settings.quotation_ttl_seconds }),
  };
  const result = h("p", { class: "result", role: "status" });
  const form = h(
    "form",
    { class: "settings" },
    field("Automatic progress delay (ms)", inputs.progress),
    h("label", { class: "check" }, inputs.off, " Automatic progress off"),
    h("label", { class: "check" }, inputs.duplicates, " Deliver every event twice"),
    field("Quotation validity (s)", inputs.ttl),
    h("button", { type: "submit" }, "Save settings"),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      fill(result, `${(await post("settings", settingsBody(inputs))).message}.`);
    } catch (error) {
      fill(result, failureText(error));
    }
  });
  return h(
    "section",
    { "aria-labelledby": "settings-title" },
    h("h2", { id: "settings-title" }, "Settings"),
    h("p", null, "Webhook URL: ", settings.webhook_url ? h("code", null, settings.webhook_url) : "none registered"),
    form,
    result,
  );
}

export function controlsView(container) {
  const clock = h("div");
  const settings = h("div");
  fill(container, clock, settings);
  async function load() {
    const answer = await get("controls");
    fill(clock, clockSection(answer.clock));
    fill(settings, settingsSection(answer.settings));
  }
  load();
  // Reloading would drop what is being typed: the page reloads after its own actions only.
  return { refresh: () => {} };
}
