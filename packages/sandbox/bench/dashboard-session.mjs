// What a dashboard call's session check costs (a benchmark, not a test): GET /_dashboard/api/session, one call at a
// time over one keep-alive connection, against sandboxes in this process, in interleaved rounds (median per call):
//   - floor: GET /_dashboard/assets/api.js of this build (a static file: no session, no database);
//   - this build: the session token in `Authorization`, looked up in the database (a digest's primary-key read),
//     in memory and on a --db file;
//   - the lookup alone, in process: DashboardAccess.session (a digest's read from SQLite in memory) beside a Map's
//     get (what the session check was when sessions lived in the replica's memory);
//   - before (when BEFORE_SANDBOX names the dist/index.js of an earlier build, e.g. one made in a worktree of the
//     commit before sessions moved to the database): the session cookie, looked up in the replica's memory.
// Run after `pnpm build`: node bench/dashboard-session.mjs   (CALLS=1000 ROUNDS=7 BEFORE_SANDBOX=...)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const CALLS = Number(process.env.CALLS ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const ORG = { name: "Bench", apiKey: "bench_key", apiSecret: "bench_secret" };
const dir = mkdtempSync(join(tmpdir(), "dashboard-session-bench-"));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** This build's session: the link's token exchanged for a session token. */
async function bearerSession(sandbox) {
  const link = new URL(sandbox.dashboard[0].url).hash.slice("#token=".length);
  const answer = await fetch(`${sandbox.url}/_dashboard/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ link }),
  });
  return { authorization: `Bearer ${(await answer.json()).token}` };
}

/** An earlier build's session: the cookie its link's redirect set. */
async function cookieSession(sandbox) {
  const entered = await fetch(sandbox.dashboard[0].url, { redirect: "manual" });
  return { cookie: entered.headers.get("set-cookie").split(";")[0] };
}

async function target(name, createSandbox, options, session, path = "/_dashboard/api/session") {
  const sandbox = await createSandbox({ organizations: [ORG], ...options });
  const headers = session ? await session(sandbox) : {};
  const probe = await fetch(`${sandbox.url}${path}`, { headers });
  if (probe.status !== 200) throw new Error(`${name}: ${path} answered ${probe.status}`);
  await probe.arrayBuffer();
  return { name, sandbox, url: `${sandbox.url}${path}`, headers, perCall: [] };
}

/** CALLS sequential calls; microseconds per call. */
async function round(t) {
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await (await fetch(t.url, { headers: t.headers })).arrayBuffer();
  return ((performance.now() - started) * 1000) / CALLS;
}

const after = await import("../dist/index.js");
const targets = [
  await target(
    "floor: a static file, no session (this build)",
    after.createSandbox,
    {},
    undefined,
    "/_dashboard/assets/api.js",
  ),
  await target("this build, in memory: Authorization, session in the database", after.createSandbox, {}, bearerSession),
  await target(
    "this build, --db file: Authorization, session in the database",
    after.createSandbox,
    { db: join(dir, "after.db") },
    bearerSession,
  ),
];
if (process.env.BEFORE_SANDBOX) {
  const before = await import(pathToFileURL(process.env.BEFORE_SANDBOX).href);
  targets.push(
    await target("before, in memory: cookie, session in the replica's memory", before.createSandbox, {}, cookieSession),
  );
  targets.push(
    await target(
      "before, --db file: cookie, session in the replica's memory",
      before.createSandbox,
      { db: join(dir, "before.db") },
      cookieSession,
    ),
  );
}
for (const t of targets) await round(t); // warm-up
for (let r = 0; r < ROUNDS; r++) for (const t of targets) t.perCall.push(await round(t));
console.log(`GET per call, median of ${ROUNDS} interleaved rounds of ${CALLS} sequential calls (µs):`);
for (const t of targets)
  console.log(
    `  ${median(t.perCall).toFixed(0).padStart(6)}  ${t.name}  (rounds ${t.perCall.map((v) => v.toFixed(0)).join(", ")})`,
  );
for (const t of targets) await t.sandbox.close();
rmSync(dir, { recursive: true, force: true });

// The lookup alone, without HTTP: the database's read beside the Map the earlier build used.
const { Store } = await import("../dist/store/store.js");
const { DashboardAccess } = await import("../dist/dashboard/access.js");
const store = await Store.open({});
const access = new DashboardAccess(store);
for (let i = 0; i < 100; i++) await access.open(await access.newLink(`org-${i}`));
const { token } = await access.open(await access.newLink("org-x"));
const inMemory = new Map([[token, { org: "org-x" }]]);
const LOOKUPS = 100_000;
console.log(`one session lookup, median of ${ROUNDS} rounds of ${LOOKUPS} (µs):`);
for (const [name, lookup] of [
  ["database (SQLite in memory, 101 sessions)", () => access.session(token)],
  // Awaited below: the lookup is asynchronous now (the Map's await costs a microtask too, so they compare alike).
  ["Map (the earlier build's)", () => inMemory.get(token)],
]) {
  const perLookup = [];
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    for (let i = 0; i < LOOKUPS; i++) await lookup();
    perLookup.push(((performance.now() - started) * 1000) / LOOKUPS);
  }
  console.log(`  ${median(perLookup).toFixed(2).padStart(6)}  ${name}`);
}
await store.close();
