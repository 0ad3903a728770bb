// A real PostgreSQL server for the tests: Debian's binaries (the `postgresql` package .ci/run installs), a
// cluster initialised in a temporary directory, listening on a free port of 127.0.0.1 only, stopped and removed
// when the tests end. initdb and pg_ctl refuse to run as root, so as root they run as the `postgres` user.
// fsync is off (a test cluster is thrown away, and no test crashes the machine); commits are still written to
// the WAL before they are acknowledged, so a server killed at once (immediate stop) keeps every acknowledged one.
// Connections over TCP need the password (PASSWORD), so a wrong one is refused as on a real server. The password
// is checked by md5, not SCRAM (PostgreSQL's default): a SCRAM login costs both sides about 8 ms of CPU (4,096
// PBKDF2 rounds), and each sandbox on PostgreSQL opens several connections (its statements, the job queue's
// pool, the liveness locks), which made SCRAM a large share of the PostgreSQL suite's time.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/** The password of the `postgres` user over TCP. */
export const PASSWORD = "sandbox-test-pw";

export interface PostgresServer {
  /** postgres://postgres:<PASSWORD>@127.0.0.1:<port>/postgres */
  readonly url: string;
  readonly port: number;
  stop(): void;
  /** Stops the server at once (immediate mode, as a crash would), keeping its files for a restart. */
  kill(): void;
  start(): void;
}

/** The directory of Debian's PostgreSQL binaries (the newest installed major version). */
export function postgresBinaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  const found = versions.map((v) => join(root, v, "bin")).find((dir) => existsSync(join(dir, "initdb")));
  return found;
}

/** A port of 127.0.0.1 free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL program, as the `postgres` user when this process is root. */
function runAs(program: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", program, ...args]] : [program, args];
  execFileSync(file, argv, { stdio: ["ignore", "ignore", "pipe"] });
}

/** initdb stored the password as SCRAM; stored again under md5 (over the socket, trusted locally), md5 checks it. */
async function storeMd5Password(socketDir: string, port: number): Promise<void> {
  const local = new pg.Client({ host: socketDir, port, user: "postgres", database: "postgres" });
  await local.connect();
  try {
    await local.query(`ALTER ROLE postgres PASSWORD '${PASSWORD}'`);
  } finally {
    await local.end();
  }
}

/**
 * Initialises and starts a throwaway cluster.
 *
 * @example
 * const pg = await startPostgres(); // ... pg.stop();
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinaries();
  if (!bin) throw new Error("PostgreSQL is not installed: apt-get install postgresql (.ci/run does)");
  const dir = mkdtempSync(join(tmpdir(), "sandbox-pg-"));
  chmodSync(dir, 0o777);
  const data = join(dir, "data");
  const port = await freePort();
  const pwfile = join(dir, "pw");
  writeFileSync(pwfile, PASSWORD);
  chmodSync(pwfile, 0o644);
  runAs(join(bin, "initdb"), [
    "-D",
    data,
    "-U",
    "postgres",
    "--locale=C",
    "-E",
    "UTF8",
    "--auth-local=trust",
    "--auth-host=md5",
    `--pwfile=${pwfile}`,
  ]);
  const options = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-k ${dir}`,
    "-c fsync=off",
    "-c full_page_writes=off",
    "-c max_connections=300",
    "-c password_encryption=md5",
  ].join(" ");
  const start = () => runAs(join(bin, "pg_ctl"), ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "start"]);
  const stopMode = (mode: string) => runAs(join(bin, "pg_ctl"), ["-D", data, "-m", mode, "-w", "stop"]);
  start();
  await storeMd5Password(dir, port);
  return {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    start,
    kill: () => stopMode("immediate"),
    stop: () => {
      try {
        stopMode("fast");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
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
  return databaseUrl(serverUrl, name);
}

/** The URL of database `name` on the server at `serverUrl`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
