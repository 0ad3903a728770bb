// A few DOM helpers: build elements from a tag, attributes and children; text is always text (never parsed as
// HTML), so nothing a record holds can inject markup.

function appendAll(parent, children) {
  for (const child of children.flat(Number.POSITIVE_INFINITY)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : String(child));
  }
}

function setAttribute(el, name, value) {
  if (value === undefined || value === null || value === false) return;
  if (name.startsWith("on")) el.addEventListener(name.slice(2).toLowerCase(), value);
  else if (name === "class") el.className = value;
  else el.setAttribute(name, value === true ? "" : String(value));
}

/** An element: h("button", { type: "submit", onClick }, "Save"). */
export function h(tag, attributes, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) setAttribute(el, name, value);
  appendAll(el, children);
  return el;
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  appendAll(el, children);
  return el;
}

/** A time as the reader's clock shows it, with its date when it is not today. */
export function when(iso) {
  if (!iso) return "";
  const at = new Date(iso);
  const today = new Date().toDateString() === at.toDateString();
  return today ? at.toLocaleTimeString() : at.toLocaleString();
}

/** A time with its date, always (lists compare records across days). */
export function dateTime(iso) {
  if (!iso) return "";
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
}

/** A JSON text pretty-printed when it parses, as it came otherwise (a capped body may be cut mid-value). */
export function pretty(text) {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A status as a badge whose class says its tone (the text says it too: color is never the only cue). */
export function badge(status) {
  const text = String(status);
  const tone = /^(FAILED|EXPIRED|REFUNDED|REFUND_INITIATED|failed|[45]\d\d)$/.test(text)
    ? "bad"
    : /^(VERIFIED|SUCCESS|ACTIVE|delivered|2\d\d)$/.test(text)
      ? "good"
      : "neutral";
  return h("span", { class: `badge ${tone}` }, String(status));
}

let fields = 0;

/** A labelled form control: <label for=…>Text</label> beside it, so the label names the control alone. */
export function field(label, control) {
  control.id ||= `field-${++fields}`;
  return h("div", { class: "field" }, h("label", { for: control.id }, label), control);
}
