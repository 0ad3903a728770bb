// Opening a PostgreSQL database for a sandbox replica: connect, then create or check the schema under a
// migration lock, so replicas that start at once against a fresh database create it once, and a database
// written by a newer sandbox (or by another application) is refused with one line. Whatever stops the start
// becomes a DatabaseError naming the database (its URL without the password) and what to do.
import { inspect as inspectValue } from "node:util";
import { DatabaseError, isSecretParameter, maskSecretParameters } from "../start-errors.js";
import { MIGRATION_LOCK, PostgresDatabase } from "./pg-database.js";
import { READ_CHECK_FOUND, READ_CHECK_FUNCTION } from "./read-check.js";
import { PostgresError } from "./pg-errors.js";

const APPLICATION = "exchange-kit-sandbox";

/**
 * The URL as it may be shown: no credential it can carry ever is (the userinfo's password, and the `password`
 * and `sslpassword` parameters, whatever their case), each masked as `***`.
 *
 * @example
 * displayUrl("postgres://sb:s3cret@db/sb?sslpassword=k3y"); // "postgres://sb:***@db/sb?sslpassword=***"
 */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return maskSecretParameters(parsed.toString());
  } catch {
    return "the PostgreSQL URL given to --db (it does not parse as a URL)";
  }
}

/** Every credential the URL carries, as written and decoded: what no message may repeat. */
export function urlSecrets(url: string): string[] {
  try {
    const parsed = new URL(url);
    const secrets = [parsed.password, decodeURIComponent(parsed.password)];
    for (const [name, value] of parsed.searchParams)
      if (isSecretParameter(name)) secrets.push(value, encodeURIComponent(value));
    return secrets.filter((secret) => secret !== "");
  } catch {
    return [];
  }
}

/** `text` with every credential of `url` masked: a driver's message may quote what it was given. */
function masked(text: string, url: string): string {
  let out = text;
  for (const secret of urlSecrets(url)) out = out.split(secret).join("***");
  return out;
}

type StartProblem = "cannot-open" | "other-application" | "newer-version" | "permission-denied";

/** One line per way a start fails, by SQLSTATE or connection error code. */
export function pgStartProblem(error: unknown): { problem: StartProblem; says: string } {
  const code = (error as { code?: string })?.code;
  const message = String((error as { message?: string })?.message ?? error);
  if (code === "28P01" || code === "28000")
    return { problem: "permission-denied", says: "PostgreSQL refused the user name or password" };
  if (code === "3D000") return { problem: "cannot-open", says: "the database does not exist (create it first)" };
  if (code === "42501")
    return { problem: "permission-denied", says: "the user may not create tables in this database" };
  if (code === undefined) return { problem: "cannot-open", says: `PostgreSQL cannot be reached (${message})` };
  return { problem: "cannot-open", says: message };
}

/** The refusal, its message masked; the cause is kept only when no credential shows in it anywhere. */
function refuse(url: string, problem: StartProblem, says: string, cause?: unknown): DatabaseError {
  const shown = masked(says, url);
  const causeShows = cause !== undefined && urlSecrets(url).some((secret) => inspectValue(cause).includes(secret));
  return new DatabaseError(`${displayUrl(url)}: ${shown}.`, {
    file: displayUrl(url),
    problem,
    cause: causeShows ? undefined : cause,
  });
}

interface Found {
  readonly tables: number;
  readonly application: string | undefined;
  readonly version: number | undefined;
}

async function inspect(db: PostgresDatabase): Promise<Found> {
  const tables = (await db
    .prepare("SELECT count(*) AS n FROM pg_tables WHERE schemaname = current_schema()")
    .get()) as { n: number };
  const hasMeta = (await db.prepare("SELECT to_regclass('sandbox_meta') IS NOT NULL AS found").get()) as {
    found: boolean;
  };
  if (!hasMeta.found) return { tables: tables.n, application: undefined, version: undefined };
  const read = async (key: string) =>
    ((await db.prepare("SELECT value FROM sandbox_meta WHERE key = ?").get(key)) as { value: string } | undefined)
      ?.value;
  const version = await read("schema_version");
  return {
    tables: tables.n,
    application: await read("application"),
    version: version === undefined ? undefined : Number(version),
  };
}

function check(url: string, found: Found, version: number): void {
  if (found.tables > 0 && found.application !== APPLICATION)
    throw refuse(
      url,
      "other-application",
      "this database holds another application's tables; it was left untouched: give the sandbox a database of its own",
    );
  if (found.version !== undefined && found.version > version)
    throw refuse(
      url,
      "newer-version",
      `this database was written by a newer sandbox (schema ${found.version}; this one reads up to ${version}): upgrade this sandbox`,
    );
}

/** Inside the migration lock's transaction: checks what the database holds and brings the schema to `version`. */
async function migrate(db: PostgresDatabase, url: string, schema: string, version: number): Promise<void> {
  await db.prepare("SELECT pg_advisory_xact_lock(?)").get(MIGRATION_LOCK);
  const found = await inspect(db);
  check(url, found, version);
  // A database already at this version is left as it is: no statement of the schema runs (a start costs a
  // connection, not ~80 catalog lookups and a function and trigger redefinition).
  if (found.version !== version) await db.exec(schema);
  // Made beside the schema (not in it: a database of this schema version made before the function gains it too).
  const checks = (await db.prepare(READ_CHECK_FOUND).get()) as { found: boolean };
  if (!checks.found) await db.prepare(READ_CHECK_FUNCTION).run();
  const set = db.prepare(
    "INSERT INTO sandbox_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  );
  await set.run("application", APPLICATION);
  await set.run("schema_version", String(version));
}

/**
 * Connects and brings the schema to `version` (creating what is missing) under the migration lock.
 *
 * @example
 * const db = await openPostgres("postgres://sandbox:secret@db:5432/sandbox", SCHEMA_SQL, 1);
 */
export async function openPostgres(
  url: string,
  schema: string,
  version: number,
  timeoutMs = 5000,
): Promise<PostgresDatabase> {
  const db = new PostgresDatabase(url, timeoutMs);
  try {
    await db.transaction("default", async () => await migrate(db, url, schema, version));
    return db;
  } catch (error) {
    await db.close();
    if (error instanceof DatabaseError) throw error;
    const { problem, says } = pgStartProblem(error);
    throw refuse(url, problem, says, error instanceof PostgresError ? undefined : error);
  }
}
