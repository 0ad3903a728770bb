// Draws one trace as an SVG waterfall (a row per span, indented by depth, a bar from its start to its end), for the
// tracing guide: the picture is made from the spans a test run recorded, never drawn by hand.
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";

const ROW = 26;
const LABEL = 430;
const BARS = 520;
const PAD = 12;

const millis = ([s, ns]: [number, number]) => s * 1000 + ns / 1e6;
const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** What a row says beside the span's name: the answer's status and err_code, the attempt, the outcome. */
function note(span: ReadableSpan): string {
  const a = span.attributes;
  const parts = [
    a["exchange.attempt"] === undefined ? undefined : `attempt ${a["exchange.attempt"]}`,
    a["http.response.status_code"],
    a["exchange.err_code"],
    a["exchange.sandbox.fault"] === undefined ? undefined : `fault ${a["exchange.sandbox.fault"]}`,
    a["exchange.webhook.event_type"] === undefined
      ? undefined
      : `${a["exchange.webhook.event_type"]} ${a["exchange.webhook.event"]}`,
    a["exchange.webhook.outcome"],
    span.events.length > 0
      ? span.events.map((e) => `${e.name}: ${e.attributes?.["exchange.lookup.result"]}`).join(", ")
      : undefined,
  ];
  return parts.filter((p) => p !== undefined).join(" · ");
}

/** The spans of a trace in display order: depth-first from the root, children by start time. */
function ordered(spans: ReadableSpan[]): { span: ReadableSpan; depth: number }[] {
  const children = new Map<string | undefined, ReadableSpan[]>();
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  for (const span of spans) {
    const parent = ids.has(span.parentSpanContext?.spanId ?? "") ? span.parentSpanContext?.spanId : undefined;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const rows: { span: ReadableSpan; depth: number }[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    const list = (children.get(parent) ?? []).sort((x, y) => millis(x.startTime) - millis(y.startTime));
    for (const span of list) {
      rows.push({ span, depth });
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return rows;
}

/** The SVG of one trace's spans. */
export function traceSvg(spans: ReadableSpan[], title: string): string {
  const rows = ordered(spans);
  const start = Math.min(...spans.map((s) => millis(s.startTime)));
  const end = Math.max(...spans.map((s) => millis(s.endTime)));
  const scale = BARS / Math.max(end - start, 1);
  const height = PAD * 2 + ROW * (rows.length + 1);
  const width = PAD * 2 + LABEL + BARS;
  const body = rows.map(({ span, depth }, i) => {
    const y = PAD + ROW * (i + 1);
    const x = PAD + LABEL + (millis(span.startTime) - start) * scale;
    const w = Math.max(2, (millis(span.endTime) - millis(span.startTime)) * scale);
    const failed = span.status.code === 2;
    const label = `${"  ".repeat(depth)}${span.name}`;
    return [
      `<text x="${PAD}" y="${y + 12}" xml:space="preserve" font-size="12">${escapeXml(label)}</text>`,
      `<text x="${PAD}" y="${y + 23}" xml:space="preserve" font-size="10" fill="#555">${escapeXml(`${"  ".repeat(depth)}${note(span)}`)}</text>`,
      `<rect x="${x.toFixed(1)}" y="${y + 4}" width="${w.toFixed(1)}" height="14" rx="2" fill="${failed ? "#c0392b" : "#2e6db4"}"/>`,
    ].join("");
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="monospace" role="img" aria-labelledby="trace-title">`,
    `<title id="trace-title">${escapeXml(`${title}: ${rows.map((r) => r.span.name).join(", ")}`)}</title>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${PAD}" y="${PAD + 14}" font-size="13" font-weight="bold">${escapeXml(title)} (${(end - start).toFixed(0)} ms)</text>`,
    ...body,
    "</svg>",
    "",
  ].join("\n");
}
