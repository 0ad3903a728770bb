// pnpm bench: canonicalize, and canonicalize + sign, against the floor
// (JSON.stringify of an already key-sorted copy + createHmac) and against
// the stable-stringify packages, on order bodies of ~200 B, 1 KB and 32 KB.
import { createHmac } from "node:crypto";
import jsonStableStringify from "json-stable-stringify";
import fastJsonStableStringify from "fast-json-stable-stringify";
import { configure } from "safe-stable-stringify";
import { canonicalize, signRequestSync } from "../dist/node.js";
import { large, medium, small } from "./bodies.mjs";

const safeStableStringify = configure({ deterministic: true });
const apiKey = "ek_bench_key";
const apiSecret = "ek_bench_secret";
const timestamp = 1700000000;

function sortedCopy(v) {
  if (Array.isArray(v)) return v.map(sortedCopy);
  if (v === null || typeof v !== "object") return v;
  const out = {};
  for (const k of Object.keys(v).sort()) out[k] = sortedCopy(v[k]);
  return out;
}

const floorSign = (sorted) => {
  const body = JSON.stringify(sorted);
  return createHmac("sha256", apiSecret).update(`${apiKey}|${timestamp}|${body}`).digest("base64");
};

let sink = 0;

/** Calls per round so that one round takes about 10 ms. */
function calibrate(fn) {
  let n = 1;
  for (;;) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) sink += fn().length;
    if (Number(process.hrtime.bigint() - t) > 10e6) return n;
    n *= 2;
  }
}

/**
 * Nanoseconds per call of each function: the best of ROUNDS rounds, the
 * functions taking turns round by round so that a busy machine slows them
 * all alike rather than whichever ran during the busy spell.
 */
function measureAll(fns) {
  const ROUNDS = 25;
  const entries = Object.entries(fns).map(([name, fn]) => ({ name, fn, n: calibrate(fn), best: Infinity }));
  for (let r = 0; r < ROUNDS; r++) {
    for (const e of entries) {
      const t = process.hrtime.bigint();
      for (let i = 0; i < e.n; i++) sink += e.fn().length;
      e.best = Math.min(e.best, Number(process.hrtime.bigint() - t) / e.n);
    }
  }
  return Object.fromEntries(entries.map((e) => [e.name, e.best]));
}

const rows = [];
for (const [label, body] of [
  ["200 B", small],
  ["1 KB", medium],
  ["32 KB", large],
]) {
  const sorted = sortedCopy(body);
  const bytes = canonicalize(body).length;
  const t = measureAll({
    floor: () => floorSign(sorted),
    sign: () => signRequestSync({ apiKey, apiSecret, timestamp, body }).body,
    stringifySorted: () => JSON.stringify(sorted),
    canonicalize: () => canonicalize(body),
    jsonStable: () => jsonStableStringify(body),
    fastJsonStable: () => fastJsonStableStringify(body),
    safeStable: () => safeStableStringify(body),
  });
  rows.push({ label, bytes, t });
}
if (sink === -1) console.log(sink);

const us = (ns) => (ns / 1000).toFixed(2).padStart(8);
const ratio = (a, b) => (a / b).toFixed(2).padStart(5) + "x";
console.log("Node " + process.version + ", microseconds per call (best of 25 interleaved rounds), lower is better\n");
console.log(
  "| body | canonical bytes | floor: sorted JSON.stringify + HMAC | canonicalize + sign (signRequestSync) | ratio to floor | JSON.stringify of sorted copy | canonicalize | json-stable-stringify | fast-json-stable-stringify | safe-stable-stringify |",
);
console.log("| - | -: | -: | -: | -: | -: | -: | -: | -: | -: |");
for (const { label, bytes, t } of rows) {
  console.log(
    `| ${label} | ${bytes} | ${us(t.floor)} | ${us(t.sign)} | ${ratio(t.sign, t.floor)} | ${us(t.stringifySorted)} | ${us(t.canonicalize)} | ${us(t.jsonStable)} | ${us(t.fastJsonStable)} | ${us(t.safeStable)} |`,
  );
}

const m = rows[1].t;
const fastest = Math.min(m.jsonStable, m.fastJsonStable, m.safeStable);
console.log(
  `\n1 KB: canonicalize + sign is ${ratio(m.sign, m.floor)} the floor (target <= 2x); canonicalize is ${ratio(fastest, m.canonicalize)} faster than the fastest stable-stringify package`,
);
