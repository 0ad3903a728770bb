// Per-request overhead of the client (a resource method: validation, canonical JSON, HMAC signing, timeout,
// envelope parsing) against a bare fetch of the same request (body and signature computed once, up front), to a
// local node:http server in a child process. Also shown: the client without a timeout (undici's bookkeeping for
// a fetch signal is a large part of the difference), and the least a correct hand-written call does.
//
//   node bench/bench.mjs [requestsPerRound=1000] [rounds=20]
import { fork } from "node:child_process";
import { canonicalize, computeSignature } from "@exchange-kit/signing";
import { createExchangeClient } from "../dist/index.js";

const perRound = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 20);
const API_KEY = "bench-key";
const API_SECRET = "bench-secret";

const server = fork(new URL("./server.mjs", import.meta.url), { stdio: ["ignore", "pipe", "inherit", "ipc"] });
const port = await new Promise((resolve, reject) => {
  server.stdout.on("data", (chunk) => {
    const match = /listening (\d+)/.exec(String(chunk));
    if (match) resolve(Number(match[1]));
  });
  server.once("exit", () => reject(new Error("bench server exited")));
});
const baseUrl = `http://127.0.0.1:${port}`;

// A KYC submission of about 1 KB of canonical JSON.
const body = {
  customer_id: "3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f",
  full_name: "Asha Verma",
  phone: "9876543210",
  full_address: "12 MG Road, Indiranagar, Bengaluru, Karnataka 560038, India",
  dob: "31-01-1990",
  registered_date: "01-02-2020",
  document_type: "PAN",
  document_details: { document_number: "ABCDE1234F", additional_data: { notes: "x".repeat(540), verified_by: "ops", tier: 2 } },
  selfie_url: "https://files.example.com/kyc/3f0e8d7c/selfie.png",
  document_front_image_url: "https://files.example.com/kyc/3f0e8d7c/pan-front.png",
  document_back_image_url: "https://files.example.com/kyc/3f0e8d7c/pan-back.png",
  tax_number: "ABCDE1234F",
};
const text = canonicalize(body);
const timestamp = String(Math.floor(Date.now() / 1000));
const signature = await computeSignature({ apiKey: API_KEY, apiSecret: API_SECRET, timestamp, canonicalBody: text });
const url = `${baseUrl}/cms/api/v1/kyc/add-kyc-data`;
const headers = {
  Accept: "application/json",
  "Content-Type": "application/json",
  "X-API-KEY": API_KEY,
  "X-TIMESTAMP": timestamp,
  "X-SIGNATURE": signature,
};

const client = createExchangeClient({ baseUrl, apiKey: API_KEY, apiSecret: API_SECRET });
const untimed = createExchangeClient({ baseUrl, apiKey: API_KEY, apiSecret: API_SECRET, timeoutMs: Infinity });

async function bare() {
  const response = await fetch(url, { method: "POST", headers, body: text });
  const envelope = await response.json();
  if (envelope.status !== true) throw new Error("bad answer");
  return envelope.data;
}
// The least a correct hand-written call does: canonicalize, sign with a fresh timestamp, time out.
async function handWritten() {
  const canonical = canonicalize(body);
  const now = String(Math.floor(Date.now() / 1000));
  const signed = await computeSignature({ apiKey: API_KEY, apiSecret: API_SECRET, timestamp: now, canonicalBody: canonical });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 30_000);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { ...headers, "X-TIMESTAMP": now, "X-SIGNATURE": signed },
      body: canonical,
      signal: controller.signal,
    });
    const envelope = await response.json();
    if (envelope.status !== true) throw new Error("bad answer");
    return envelope.data;
  } finally {
    clearTimeout(timer);
  }
}
const viaClient = () => client.kyc.addData(body);
const viaUntimed = () => untimed.kyc.addData(body);

async function round(fn) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < perRound; i++) await fn();
  return Number(process.hrtime.bigint() - start) / 1000 / perRound; // µs per request
}

// The fastest round: the least disturbed by other work on the machine (GC, other processes), so the
// difference between variants is the client's own cost rather than noise. The median is printed too.
const fastest = (xs) => Math.min(...xs);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const runs = {
  "bare fetch": bare,
  "hand-written: sign + 30 s timeout": handWritten,
  "client (timeoutMs 30 s, default)": viaClient,
  "client (timeoutMs: Infinity)": viaUntimed,
};
try {
  // Warm up the connection pool, the JIT and the HMAC key cache.
  for (let i = 0; i < 2; i++) for (const fn of Object.values(runs)) await round(fn);
  const results = Object.fromEntries(Object.keys(runs).map((name) => [name, []]));
  const names = Object.keys(runs);
  for (let r = 0; r < rounds; r++) {
    // Rotate the order so drift (GC, CPU frequency) hits every variant alike.
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length];
      results[name].push(await round(runs[name]));
    }
  }
  const m = Object.fromEntries(names.map((name) => [name, fastest(results[name])]));
  const med = Object.fromEntries(names.map((name) => [name, median(results[name])]));
  const pct = (a, b) => `${(((m[a] - m[b]) / m[b]) * 100).toFixed(1)} %`;
  console.log(`body ${text.length} B of canonical JSON; ${rounds} rounds x ${perRound} sequential requests; µs per request`);
  console.log(`${"".padEnd(34)} ${"fastest".padStart(8)} ${"median".padStart(8)}`);
  for (const name of names) console.log(`${name.padEnd(34)} ${m[name].toFixed(1).padStart(8)} ${med[name].toFixed(1).padStart(8)}`);
  console.log(`client, default settings, vs bare fetch:           ${pct("client (timeoutMs 30 s, default)", "bare fetch")} (target < 15 %)`);
  console.log(`client without a timeout, vs bare fetch:           ${pct("client (timeoutMs: Infinity)", "bare fetch")}`);
  console.log(`client, default settings, vs hand-written call:    ${pct("client (timeoutMs 30 s, default)", "hand-written: sign + 30 s timeout")}`);
} finally {
  server.kill();
}
