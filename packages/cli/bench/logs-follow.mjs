// `exchange-kit logs --follow` under a burst (a measurement, not a test; the test sends 1,050): 10,000 signed
// requests at 50 connections against a sandbox process while `logs --follow --json` runs in another process;
// counts what the follower printed and checks that the numbers run on without a gap.
// Run after `pnpm build`: node bench/logs-follow.mjs
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { signRequest } from "@exchange-kit/signing";
const bin = new URL("../dist/bin.js", import.meta.url).pathname;
const env = { ...process.env, EXCHANGE_API_KEY: "k10", EXCHANGE_API_SECRET: "s10" };
const sandbox = spawn(process.execPath, [bin, "sandbox", "--port", "0", "--json", "--auto-progress", "off"], {
  env,
  stdio: ["ignore", "pipe", "inherit"],
});
const url = await new Promise((r) => {
  let o = "";
  sandbox.stdout.on("data", (c) => {
    o += c;
    if (o.includes("\n")) r(JSON.parse(o.split("\n")[0]).url);
  });
});
const since = new Date().toISOString();
const follower = spawn(
  process.execPath,
  [bin, "logs", "--base-url", url, "--follow", "--json", "--since", since, "--interval", "200"],
  { env, stdio: ["ignore", "pipe", "inherit"] },
);
let out = "";
follower.stdout.on("data", (c) => (out += c));
const agent = new Agent({ keepAlive: true, maxSockets: 50 });
const call = async (path) => {
  const s = await signRequest({ apiKey: "k10", apiSecret: "s10" });
  return new Promise((res, rej) => {
    const q = request(`${url}${path}`, { agent, headers: s.headers }, (r) => {
      r.resume();
      r.on("end", res);
    });
    q.on("error", rej);
    q.end(s.body);
  });
};
let next = 0;
const t0 = performance.now();
await Promise.all(
  Array.from({ length: 50 }, async () => {
    while (next < 10000) {
      next++;
      await call("/cms/api/v1/customer/list");
    }
  }),
);
const sent = performance.now() - t0;
const deadline = Date.now() + 60000;
while (out.split("\n").filter(Boolean).length < 10000 && Date.now() < deadline)
  await new Promise((r) => setTimeout(r, 100));
const lines = out
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const seqs = lines.map((l) => l.seq);
const gaps = seqs.filter((s, i) => i > 0 && s !== seqs[i - 1] + 1).length;
console.log(
  `sent 10000 in ${sent.toFixed(0)} ms; follower printed ${lines.length} lines, seq ${seqs[0]}..${seqs.at(-1)}, gaps ${gaps}, dropped lines ${lines.filter((l) => l.dropped).length}`,
);
follower.kill("SIGKILL");
sandbox.kill("SIGKILL");
agent.destroy();
