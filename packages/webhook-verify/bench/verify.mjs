// Verifications per second of a signed event on one core, at 600 B and 16 KB,
// against the floor (a bare createHmac + timingSafeEqual over the same bytes)
// and a peer (stripe's webhooks.constructEvent: HMAC-SHA256 over the payload,
// a timestamp check and JSON.parse, as verifyWebhook does), in the same run.
// Run after `pnpm build` (the "bench" script does; turbo builds first).
import { createHmac, timingSafeEqual } from "node:crypto";
import { canonicalize, computeSignature } from "@exchange-kit/signing";
import { verifyWebhook } from "@exchange-kit/webhook-verify";
import Stripe from "stripe";

const apiKey = "ak_live_7f3c2a91";
const apiSecret = "sk_live_9d41e0b6c5a8f2e7";
const now = Math.floor(Date.now() / 1000);
const timestamp = String(now);
const stripe = new Stripe("sk_test_bench");
const stripeSecret = "whsec_bench_3f1c9a";

function eventOfBytes(size) {
  const event = {
    type: "PAYOUT",
    id: "c4b3a291-8f7e-4d6c-9b5a-4f3e2d1c0b9a",
    event: "IN_REVIEW",
    timestamp: "2026-03-01T10:55:02Z",
    metadata: {
      client_reference_id: "payout-000789",
      reason: "Request for information",
      rfi_link: "https://rfi.exchange.example/r/4c2e9a71",
      note: "",
    },
  };
  event.metadata.note = "x".repeat(size - canonicalize(event).length);
  return canonicalize(event);
}

async function casesOf(size) {
  const text = eventOfBytes(size);
  const bytes = Buffer.from(text);
  const signature = await computeSignature({ apiKey, apiSecret, timestamp, canonicalBody: text });
  const headers = { "x-timestamp": timestamp, "x-signature": signature, "content-type": "application/json" };
  const pretty = Buffer.from(JSON.stringify(JSON.parse(text), null, 2));
  const rotation = [
    { apiKey: "ak_live_old", apiSecret: "sk_live_old" },
    { apiKey, apiSecret },
  ];
  const stripeHeader = stripe.webhooks.generateTestHeaderString({
    payload: text,
    secret: stripeSecret,
    timestamp: now,
  });
  const given = Buffer.from(signature, "base64");
  const floor = () => {
    const digest = createHmac("sha256", apiSecret).update(`${apiKey}|${timestamp}|`).update(bytes).digest();
    if (given.length !== digest.length || !timingSafeEqual(digest, given)) throw new Error("floor: no match");
  };
  return {
    bytes: bytes.length,
    floor,
    cases: {
      "peer: stripe webhooks.constructEvent, Buffer": () =>
        stripe.webhooks.constructEvent(bytes, stripeHeader, stripeSecret),
      "verifyWebhook, Buffer body": () => verifyWebhook({ body: bytes, headers, apiKey, apiSecret, now }),
      "verifyWebhook, string body": () => verifyWebhook({ body: text, headers, apiKey, apiSecret, now }),
      "verifyWebhook, pretty-printed body (2 forms)": () =>
        verifyWebhook({ body: pretty, headers, apiKey, apiSecret, now }),
      "verifyWebhook, 2 credentials (rotation)": () =>
        verifyWebhook({ body: bytes, headers, credentials: rotation, now }),
    },
  };
}

/** Operations per second over about `ms` milliseconds; awaits each call as a receiver would. */
async function rate(fn, ms) {
  let n = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 100; i++) await fn();
    n += 100;
    elapsed = performance.now() - start;
  }
  return (n / elapsed) * 1000;
}

const quantile = (values, q) => values.slice().sort((a, b) => a - b)[Math.floor((values.length - 1) * q)];
const median = (values) => quantile(values, 0.5);
const fmt = (perSecond) => Math.round(perSecond).toLocaleString("en").padStart(10);
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const TARGETS = { 600: 0.6, 16384: 0.5 };
const SIZES = [600, 16 * 1024];

if (process.env.BENCH_CASE) {
  // One case and the floor, alone in this process: a receiver verifies one kind of body, and other
  // cases run in the same isolate would make the shared code polymorphic and slow every one of them.
  const { floor, cases } = await casesOf(Number(process.env.BENCH_SIZE));
  const fn = cases[process.env.BENCH_CASE];
  await rate(floor, 300);
  await rate(fn, 300);
  const floorRates = [];
  const rates = [];
  const ratios = [];
  // Short slices, the case right after the floor, many rounds: the ratio to the floor stays
  // meaningful on a machine whose load changes during the run.
  for (let round = 0; round < ROUNDS; round++) {
    const floorRate = await rate(floor, 100);
    const caseRate = await rate(fn, 100);
    floorRates.push(floorRate);
    rates.push(caseRate);
    ratios.push(caseRate / floorRate);
  }
  process.stdout.write(JSON.stringify({ floorRates, rates, ratios }));
} else {
  const { execFileSync } = await import("node:child_process");
  const { fileURLToPath } = await import("node:url");
  for (const size of SIZES) {
    const { bytes, cases } = await casesOf(size);
    const names = Object.keys(cases);
    const results = {};
    for (const name of names) {
      const env = { ...process.env, BENCH_CASE: name, BENCH_SIZE: String(size) };
      results[name] = JSON.parse(
        execFileSync(process.execPath, [fileURLToPath(import.meta.url)], { env, encoding: "utf8" }),
      );
    }
    const floorRates = names.flatMap((name) => results[name].floorRates);
    console.log(
      `\nverify a ${bytes}-byte event, one core, Node ${process.version} (medians of ${ROUNDS} interleaved rounds, each case in its own process beside the floor)`,
    );
    console.log(`${"floor: createHmac + timingSafeEqual".padEnd(48)} ${fmt(median(floorRates))} /s  100% of floor`);
    for (const name of names) {
      const { rates, ratios } = results[name];
      const [low, mid, high] = [0.25, 0.5, 0.75].map((q) => (quantile(ratios, q) * 100).toFixed(0));
      console.log(
        `${name.padEnd(48)} ${fmt(median(rates))} /s ${mid.padStart(4)}% of floor (quartiles ${low}-${high}%)`,
      );
    }
    const core = median(results["verifyWebhook, Buffer body"].ratios);
    const peer = median(results["peer: stripe webhooks.constructEvent, Buffer"].ratios);
    const target = TARGETS[size];
    console.log(
      `target: Buffer body at least ${target * 100}% of the floor: ${core >= target ? "met" : "NOT met"} (${(core * 100).toFixed(0)}%; ` +
        `stripe ${(peer * 100).toFixed(0)}%)`,
    );
  }
}
