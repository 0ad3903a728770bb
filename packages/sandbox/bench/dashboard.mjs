// The dashboard's weight and speed (a benchmark, not a test): the sandbox in its own process (bench/serve.mjs,
// in memory) with BENCH_ROWS customers and payouts (default 100,000) seeded through the store, then
//   - the first load in headless Chromium over loopback, RUNS times in a fresh browser context: the time from
//     navigation to the first page of records on screen, and the bytes transferred (bodies and headers, from
//     the browser's own request sizes), the live stream left out;
//   - the records view at that size: GET /_dashboard/api/records for page 1, the middle page, the last page and a
//     search by client_reference_id, SAMPLES times each (median and max), and the rows the page holds;
//   - paging in the browser: "Next" pressed and the next page on screen.
// Run after `pnpm build`: node bench/dashboard.mjs   (BENCH_ROWS=1000,100000 RUNS=5 SAMPLES=20)
import { fork } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { chromium } from "playwright-core";

const ROWS = (process.env.BENCH_ROWS ?? "100000").split(",").map(Number);
const RUNS = Number(process.env.RUNS ?? 5);
const SAMPLES = Number(process.env.SAMPLES ?? 20);
const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
accessSync(executablePath, constants.X_OK);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => value.toFixed(1);

function startSandbox(rows) {
  const child = fork(new URL("./serve.mjs", import.meta.url), {
    env: { ...process.env, BENCH_KEY: "bench_key", BENCH_SECRET: "bench_secret", BENCH_ROWS: String(rows) },
  });
  return new Promise((resolve) => child.once("message", (ready) => resolve({ child, ...ready })));
}

/** One first load in a fresh context: ms to the first record row, and the bytes the browser transferred. */
async function firstLoad(browser, link) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const requests = [];
  page.on("requestfinished", (request) => requests.push(request));
  const started = performance.now();
  await page.goto(link);
  await page.locator("table.records tbody tr td a").first().waitFor();
  const wall = performance.now() - started;
  // The page's own clock: from the start of the navigation (the token's URL) to the rows on screen, and to
  // DOMContentLoaded; the driver's round trips are not in it.
  const { elapsed, domContentLoaded } = await page.evaluate(() => ({
    elapsed: performance.now(),
    domContentLoaded: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd,
  }));
  let bytes = 0;
  for (const request of requests) {
    if (request.url().endsWith("/stream")) continue;
    const sizes = await request.sizes();
    bytes += sizes.responseBodySize + sizes.responseHeadersSize + sizes.requestHeadersSize;
  }
  const rows = await page.locator("table.records tbody tr").count();
  // The session the page opened with its link, as it sends it (an Authorization header).
  const session = await page.evaluate(() => sessionStorage.getItem("exchange-kit-dashboard-session"));
  return { elapsed, domContentLoaded, wall, bytes, files: requests.length, rows, context, page, session };
}

async function timed(url, session) {
  const times = [];
  let body;
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    body = await (await fetch(url, { headers: { authorization: `Bearer ${session}` } })).json();
    times.push(performance.now() - started);
  }
  return { median: median(times), max: Math.max(...times), rows: body.results.length, count: body.count };
}

async function measure(browser, rows) {
  const sandbox = await startSandbox(rows);
  const loads = [];
  for (let i = 0; i < RUNS; i++) loads.push(await firstLoad(browser, sandbox.dashboard));
  const last = loads[loads.length - 1];
  const api = `${sandbox.url}/_dashboard/api/records?kind=customers&per_page=25`;
  const pages = Math.ceil(rows / 25);
  const cases = {
    "page 1": `${api}&page=1`,
    "middle page": `${api}&page=${Math.ceil(pages / 2)}`,
    "last page": `${api}&page=${pages}`,
    "search by client_reference_id": `${api}&q=seed-${Math.floor(rows / 2)}`,
  };
  console.log(`\n${rows.toLocaleString()} customers (sandbox started in ${ms(sandbox.startMs)} ms)`);
  const runs = (key) => loads.map((l) => ms(l[key])).join(", ");
  console.log(
    `first load to rows on screen (page clock): median ${ms(median(loads.map((l) => l.elapsed)))} ms (runs ${runs("elapsed")}); ` +
      `DOMContentLoaded median ${ms(median(loads.map((l) => l.domContentLoaded)))} ms; driver's wall time median ` +
      `${ms(median(loads.map((l) => l.wall)))} ms; ${(median(loads.map((l) => l.bytes)) / 1024).toFixed(1)} KiB ` +
      `transferred in ${last.files} requests, ${last.rows} rows on screen`,
  );
  for (const [name, url] of Object.entries(cases)) {
    const t = await timed(url, last.session);
    console.log(`records ${name}: median ${ms(t.median)} ms, max ${ms(t.max)} ms, ${t.rows} rows of ${t.count}`);
  }
  // In the page's own clock: "Next" clicked, the next page's rows in the table.
  const nextMs = await last.page.evaluate(async () => {
    const body = document.querySelector("table.records tbody");
    const next = [...document.querySelectorAll(".pager button")].find((b) => b.textContent === "Next");
    const changed = new Promise((resolve) => {
      new MutationObserver((_, observer) => {
        observer.disconnect();
        resolve();
      }).observe(body, { childList: true });
    });
    const started = performance.now();
    next.click();
    await changed;
    return performance.now() - started;
  });
  console.log(`"Next" to the next page on screen (page clock): ${ms(nextMs)} ms`);
  for (const load of loads) await load.context.close();
  sandbox.child.send("close");
}

const browser = await chromium.launch({
  executablePath,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"],
});
try {
  for (const rows of ROWS) await measure(browser, rows);
} finally {
  await browser.close();
}
