// Memory under an answer without end (issue 19): a server in another process streams a body at 20 MB/s for ever;
// the client reads it with its default maxResponseBytes (4 MiB) and the default 30 s timeout. Prints the RSS of
// this process before the call, its peak during the call (sampled every 20 ms) and after it; then, for
// comparison, the same body read whole by fetch + response.text() (what the client did before) for `seconds`.
//
//   node bench/endless-body.mjs [seconds=10]
import { fork } from "node:child_process";
import { createServer } from "node:http";
import { createExchangeClient } from "../dist/index.js";

if (process.argv[2] === "serve") {
  // 1 MB every 50 ms: 20 MB/s, the rate of the report.
  const chunk = Buffer.alloc(1_000_000, 0x61);
  const server = createServer((_, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"status":true,"data":"');
    const timer = setInterval(() => res.write(chunk), 50);
    res.on("close", () => clearInterval(timer));
  });
  server.listen(0, "127.0.0.1", () => console.log(`listening ${server.address().port}`));
  process.on("disconnect", () => process.exit(0));
} else {
  const seconds = Number(process.argv[2] ?? 10);
  const server = fork(new URL(import.meta.url), ["serve"], { stdio: ["ignore", "pipe", "inherit", "ipc"] });
  const port = await new Promise((resolve) => {
    server.stdout.on("data", (chunk) => {
      const match = /listening (\d+)/.exec(String(chunk));
      if (match) resolve(Number(match[1]));
    });
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const MiB = 1024 * 1024;
  const rss = () => process.memoryUsage().rss;

  /** RSS before, peak during and after `run`, in MiB, and how it ended. */
  async function measure(run) {
    globalThis.gc?.();
    const before = rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 20);
    const started = Date.now();
    const outcome = await run().then(
      () => "resolved",
      (e) => `${e.name}: ${e.message.slice(0, 90)}`,
    );
    clearInterval(sampler);
    peak = Math.max(peak, rss());
    const after = rss();
    globalThis.gc?.();
    const settled = rss();
    const mib = (n) => (n / MiB).toFixed(1);
    return `${outcome}\n  ${Date.now() - started} ms; RSS before ${mib(before)} MiB, peak ${mib(peak)} MiB (+${mib(peak - before)}), after ${mib(after)} MiB, after gc ${mib(settled)} MiB`;
  }

  const client = createExchangeClient({ baseUrl, apiKey: "bench-key", apiSecret: "bench-secret", retryBaseMs: 1 });
  // Three calls in a row: the first also pays for loading undici and Web Crypto; later ones show what a call costs.
  for (const call of [1, 2, 3]) {
    const line = await measure(() => client.customers.get("c-1"));
    console.log(`client call ${call}, default maxResponseBytes (4 MiB):\n  ${line}`);
  }
  console.log(
    `fetch + response.text() for ${seconds} s (the client before):\n  ${await measure(() =>
      fetch(`${baseUrl}/x`, { signal: AbortSignal.timeout(seconds * 1000) }).then((r) => r.text()),
    )}`,
  );
  server.kill("SIGKILL");
}
