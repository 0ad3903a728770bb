// Sandbox replicas for the tests: separate Node processes (the built package, test/fixtures/serve-replica.mjs),
// each a createSandbox on the same PostgreSQL database with the same organizations. The test talks to them over
// HTTP only, as a load balancer's clients would; they are killed with SIGKILL when the test file is done, and
// at the latest when the test process exits, so none is left behind.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { Api, type ApiTarget, ORG_A } from "../helpers.js";

const SERVE = fileURLToPath(new URL("../fixtures/serve-replica.mjs", import.meta.url));

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

/**
 * Starts one replica on `db` (further createSandbox options as JSON-able `options`).
 *
 * @example
 * const replica = await startReplica(url); await replica.api().ok("GET", "/cms/api/v1/customer/list");
 */
export async function startReplica(db: string, options: Record<string, unknown> = {}): Promise<Replica> {
  const child = spawn(process.execPath, [SERVE, db, JSON.stringify(options)], { stdio: ["ignore", "pipe", "inherit"] });
  running.add(child);
  child.once("exit", () => running.delete(child));
  const url = await ready(child);
  const target: ApiTarget = { url, organizations: [] };
  return { url, child, api: (org = ORG_A) => new Api(target, org) };
}

/** Starts `count` replicas on `db` at once (they create or check the schema under the migration lock). */
export function startReplicas(db: string, count: number, options: Record<string, unknown> = {}): Promise<Replica[]> {
  return Promise.all(Array.from({ length: count }, () => startReplica(db, options)));
}

/** Kills the replicas with SIGKILL and waits until each has exited. */
export async function killReplicas(replicas: readonly Replica[]): Promise<void> {
  await Promise.all(
    replicas.map(({ child }) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGKILL");
      return exited;
    }),
  );
}

/**
 * A new, empty database on the server at `serverUrl`, and its URL.
 *
 * @example
 * const db = await createDatabase(server.url, "replicas");
 */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = new pg.Client(serverUrl);
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** `count` calls of `call(i, replica)`, all at once, request i going to replica i mod the number of replicas. */
export function spread<T>(
  replicas: readonly Replica[],
  count: number,
  call: (i: number, replica: Replica) => Promise<T>,
): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => call(i, replicas[i % replicas.length]!)));
}
