// Checks every vector of vectors.json against one built entry of the
// package, in whatever runtime runs this file (Node, Deno, Bun):
//   node test/run-vectors.mjs dist/index.js
// Prints one JSON line: { runtime, checks, failures }.
import { readFileSync } from "node:fs";

const entry = new URL(`../${process.argv[2] ?? globalThis.Deno?.args?.[0]}`, import.meta.url);
const lib = await import(entry.href);
const table = JSON.parse(readFileSync(new URL("./vectors.json", import.meta.url), "utf8"));
const { apiKey, apiSecret, timestamp } = table;
const failures = [];
let checks = 0;
const check = (name, what, got, expected) => {
  checks++;
  if (got !== expected) failures.push({ name, what, got, expected });
};

for (const v of table.vectors) {
  check(v.name, "canonicalizeText", lib.canonicalizeText(v.input), v.canonical);
  const value = v.viaJsonParse ? JSON.parse(v.input) : undefined;
  if (v.viaJsonParse) check(v.name, "canonicalize", lib.canonicalize(value), v.canonical);
  const base = { apiKey, apiSecret, timestamp };
  check(v.name, "computeSignature", await lib.computeSignature({ ...base, canonicalBody: v.canonical }), v.signature);
  check(
    v.name,
    "verifySignature",
    await lib.verifySignature({ ...base, canonicalBody: v.canonical, signature: v.signature, now: timestamp }),
    true,
  );
  if (v.method === "GET") {
    const r = await lib.signRequest(base);
    check(v.name, "signRequest GET signature", r.headers["X-SIGNATURE"], v.signature);
    check(v.name, "signRequest GET body", r.body, undefined);
  } else if (v.viaJsonParse && typeof value === "object") {
    const r = await lib.signRequest({ ...base, body: value });
    check(v.name, "signRequest body", r.body, v.canonical);
    check(v.name, "signRequest signature", r.headers["X-SIGNATURE"], v.signature);
  }
  if (typeof lib.computeSignatureSync === "function") {
    check(
      v.name,
      "computeSignatureSync",
      lib.computeSignatureSync({ ...base, canonicalBody: v.canonical }),
      v.signature,
    );
  }
}

const runtime = globalThis.Deno
  ? `deno ${Deno.version.deno}`
  : globalThis.Bun
    ? `bun ${Bun.version}`
    : `node ${process.version}`;
console.log(JSON.stringify({ runtime, entry: entry.pathname.split("/").pop(), checks, failures }));
