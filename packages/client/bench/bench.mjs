// Per-request overhead of the client against, in the same run and to the same local node:http server (a child
// process): a bare fetch (body and signature computed once, up front: the floor), a hand-signed fetch
// (canonicalize, sign with a fresh timestamp: the least a correct call does), the same with a 30 s abort timer
// (what a careful hand-written call adds, and what the client's default timeoutMs does), the resource method,
// client.raw, and two peers: openapi-fetch (the client.raw is built on, with createSigningMiddleware, so it signs
// as the client does) and openai-node's client. GET and POST with a 1 KB body. Figures are medians of interleaved
// rounds, in wall time and in this process's CPU time; ratios are to the floor and to the hand-signed fetch without
// a timer.
//
// BEFORE=<path of another build's dist/index.js> adds that build's resource method and client.raw to the same
// rounds, so a change is measured before and after in one process, on the same machine state.
//
//   node bench/bench.mjs [requestsPerRound=1000] [rounds=20]
import { fork } from "node:child_process";
import { canonicalize, computeSignature } from "@exchange-kit/signing";
import OpenAI from "openai";
import createClient from "openapi-fetch";
import { interleavedRounds, median, paired } from "./rounds.mjs";
import { createExchangeClient, createSigningMiddleware } from "../dist/index.js";

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
  document_details: {
    document_number: "ABCDE1234F",
    additional_data: { notes: "x".repeat(540), verified_by: "ops", tier: 2 },
  },
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
const before = process.env.BEFORE
  ? (await import(new URL(process.env.BEFORE, `file://${process.cwd()}/`).href)).createExchangeClient({
      baseUrl,
      apiKey: API_KEY,
      apiSecret: API_SECRET,
    })
  : undefined;
// The peer client.raw is built on: openapi-fetch, signed by the client's own middleware, canonical bodies.
const peer = createClient({ baseUrl, bodySerializer: canonicalize });
peer.use(createSigningMiddleware({ apiKey: API_KEY, apiSecret: API_SECRET }));
// The peer: openai-node's client (its own retries, timeout and JSON handling; Bearer auth, no body signing),
// sending the same requests to the same server through its generic get/post.
const openai = new OpenAI({ apiKey: API_KEY, baseURL: baseUrl, maxRetries: 2, timeout: 30_000 });
const CUSTOMER_ID = "3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f";
const getPath = `/cms/api/v1/customer/${CUSTOMER_ID}`;
const getUrl = `${baseUrl}${getPath}`;
const getSignature = await computeSignature({ apiKey: API_KEY, apiSecret: API_SECRET, timestamp, canonicalBody: "{}" });
const getHeaders = {
  Accept: "application/json",
  "X-API-KEY": API_KEY,
  "X-TIMESTAMP": timestamp,
  "X-SIGNATURE": getSignature,
};

const answered = async (response) => {
  const envelope = await response.json();
  if (envelope.status !== true) throw new Error("bad answer");
  return envelope.data;
};
// The floor: body and signature computed once, up front.
const bareGet = async () => answered(await fetch(getUrl, { headers: getHeaders }));
const barePost = async () => answered(await fetch(url, { method: "POST", headers, body: text }));

// The least a correct hand-written call does: canonicalize, sign with a fresh timestamp; `timed` adds a 30 s
// abort timer.
async function handSigned(method, target, value, timed = false) {
  const canonical = value === undefined ? undefined : canonicalize(value);
  const now = String(Math.floor(Date.now() / 1000));
  const signed = await computeSignature({
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    timestamp: now,
    canonicalBody: canonical ?? "{}",
  });
  const controller = timed ? new AbortController() : undefined;
  const timer = timed ? setTimeout(() => controller.abort(), 30_000) : undefined;
  try {
    const base = canonical === undefined ? getHeaders : headers;
    const response = await fetch(target, {
      method,
      headers: { ...base, "X-TIMESTAMP": now, "X-SIGNATURE": signed },
      body: canonical,
      signal: controller?.signal,
    });
    return await answered(response);
  } finally {
    clearTimeout(timer);
  }
}

const getOf = (raw) => async () => {
  const { data } = await raw.GET("/cms/api/v1/customer/{customer_id}", {
    params: { path: { customer_id: CUSTOMER_ID } },
  });
  if (data.status !== true) throw new Error("bad answer");
  return data.data;
};
const postOf = (raw) => async () => {
  const { data } = await raw.POST("/cms/api/v1/kyc/add-kyc-data", { body });
  if (data.status !== true) throw new Error("bad answer");
  return data.data;
};
// The previous build's variants, when BEFORE names one.
const beforeGet = before && {
  "before: customers.get": () => before.customers.get(CUSTOMER_ID),
  "before: client.raw.GET": getOf(before.raw),
};
const beforePost = before && {
  "before: kyc.addData": () => before.kyc.addData(body),
  "before: client.raw.POST": postOf(before.raw),
};

const groups = {
  GET: {
    "bare fetch (floor)": bareGet,
    "hand-signed fetch": () => handSigned("GET", getUrl, undefined),
    "hand-signed + 30 s timer": () => handSigned("GET", getUrl, undefined, true),
    "client.customers.get": () => client.customers.get(CUSTOMER_ID),
    "client.raw.GET": getOf(client.raw),
    ...beforeGet,
    "openapi-fetch + signing": getOf(peer),
    "openai client .get": () => openai.get(getPath),
  },
  "POST 1 KB": {
    "bare fetch (floor)": barePost,
    "hand-signed fetch": () => handSigned("POST", url, body),
    "hand-signed + 30 s timer": () => handSigned("POST", url, body, true),
    "client.kyc.addData": () => client.kyc.addData(body),
    "client.raw.POST": postOf(client.raw),
    ...beforePost,
    "openapi-fetch + signing": postOf(peer),
    "openai client .post": () => openai.post("/cms/api/v1/kyc/add-kyc-data", { body }),
  },
};

// Medians of the rounds. Wall time is what a caller waits, the server's share included; CPU time is what this
// process spends per request (the client's own work, undici's and the kernel's for its socket), which other load
// on the machine disturbs much less than wall time, so it is the fairer comparison on a shared machine.
try {
  console.log(
    `POST body ${text.length} B of canonical JSON; ${rounds} rounds x ${perRound} sequential requests; medians in µs per request`,
  );
  for (const [group, runs] of Object.entries(groups)) {
    const names = Object.keys(runs);
    const results = await interleavedRounds(runs, rounds, perRound);
    const wall = Object.fromEntries(names.map((name) => [name, median(results[name].map((x) => x.wall))]));
    const cpu = Object.fromEntries(names.map((name) => [name, median(results[name].map((x) => x.cpu))]));
    const [floor, hand] = names;
    console.log(`\n${group}`);
    const head = ["wall", "/floor", "/hand", "cpu", "/floor", "/hand"].map((h) => h.padStart(7)).join(" ");
    console.log(`${"".padEnd(28)} ${head}   paired cpu/hand: median [quartiles]`);
    for (const name of names) {
      const cells = [wall, cpu].flatMap((m) => [
        m[name].toFixed(1).padStart(7),
        (m[name] / m[floor]).toFixed(3).padStart(7),
        (m[name] / m[hand]).toFixed(3).padStart(7),
      ]);
      console.log(`${name.padEnd(28)} ${cells.join(" ")}   ${paired(results[name], results[hand])}`);
    }
  }
} finally {
  server.kill();
}
