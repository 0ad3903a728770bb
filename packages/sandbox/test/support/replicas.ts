// Sandbox replicas for the tests: separate Node processes (the built package, test/fixtures/replica-on-stdin.mjs),
// each a createSandbox on the same PostgreSQL database with the same organizations. The test talks to them over
// HTTP only, as a load balancer's clients would; they are killed with SIGKILL when the test file is done, and
// at the latest when the test process exits, so none is left behind.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Api, type ApiTarget, ORG_A } from "../helpers.js";

const SERVE = fileURLToPath(new URL("../fixtures/replica-on-stdin.mjs", import.meta.url));

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export interface Replica {
  readonly url: string;
  readonly child: ChildProcess;
  /** A signed client of this replica, as `org` (Org A by default); every answer is checked against the spec. */
  api(org?: { apiKey: string; apiSecret: string }): Api<ApiTarget>;
}

function ready(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const newline = text.indexOf("\n");
      if (newline === -1) return;
      const first = JSON.parse(text.slice(0, newline)) as { url?: string; error?: string };
      if (first.url) resolve(first.url);
      else reject(new Error(`replica refused to start: ${first.error}`));
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`replica exited with ${code} before it was ready`)));
  });
}

/** A replica process that has loaded the package and waits to be told its database. */
export interface ReplicaProcess {
  readonly child: ChildProcess;
  /** Starts the sandbox on `db` (further createSandbox options as JSON-able `options`). */
  start(db: string, options?: Record<string, unknown>): Promise<Replica>;
}

/**
 * Spawns a replica process, which loads the built package while the test goes on (making its server, say).
 *
 * @example
 * const spawned = spawnReplica(); const replica = await spawned.start(url);
 */
export function spawnReplica(): ReplicaProcess {
  const child = spawn(process.execPath, [SERVE], { stdio: ["pipe", "pipe", "inherit"] });
  running.add(child);
  child.once("exit", () => running.delete(child));
  const url = ready(child);
  // A process that dies before it is started is reported by start(), not as an unhandled rejection.
  url.catch(() => {});
  return {
    child,
    start: async (db, options = {}) => {
      child.stdin!.end(`${JSON.stringify({ db, options })}\n`);
      const target: ApiTarget = { url: await url, organizations: [] };
      return { url: target.url, child, api: (org = ORG_A) => new Api(target, org) };
    },
  };
}

/** Starts replicas on `db` at once (they create or check the schema under the migration lock). */
export function startReplicas(
  processes: readonly ReplicaProcess[],
  db: string,
  options: Record<string, unknown> = {},
): Promise<Replica[]> {
  return Promise.all(processes.map((p) => p.start(db, options)));
}

/** Kills the replicas with SIGKILL and waits until each has exited. */
export async function killReplicas(replicas: ReadonlyArray<{ readonly child: ChildProcess }>): Promise<void> {
  await Promise.all(
    replicas.map(({ child }) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGKILL");
      return exited;
    }),
  );
}

/** `count` calls of `call(i, replica)`, all at once, request i going to replica i mod the number of replicas. */
export function spread<T>(
  replicas: readonly Replica[],
  count: number,
  call: (i: number, replica: Replica) => Promise<T>,
): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => call(i, replicas[i % replicas.length]!)));
}
