// exchange-kit sandbox: the stateful local exchange, until Ctrl-C. The sandbox is created through loadSandbox,
// which first checks the running Node (node:sqlite is loaded when the database opens): on Node 20 the command
// stops in one line. Importing the package here (its fault kinds) loads no node:sqlite.
import {
  type ChaosOptions,
  type Durability,
  REQUEST_FAULTS,
  type Sandbox,
  type SandboxOptions,
  type SandboxOrganizationOptions,
  WEBHOOK_FAULTS,
} from "@exchange-kit/sandbox";
import { type Credentials, readCredentials } from "../credentials.js";
import { type Output, UsageError } from "../output.js";
import { loadSandbox } from "../sandbox-runtime.js";
import { exportLine } from "../shell-exports.js";
import { startTelemetry, type Telemetry } from "../telemetry.js";
import type { Command, CommandContext } from "./command.js";
import { hostFlag, portFlag } from "./flags.js";
import { untilAborted } from "./until-aborted.js";

/** KEY:SECRET[:NAME] — the secret may not contain ":"; the name may. */
function parseOrganization(text: string): SandboxOrganizationOptions {
  const [apiKey, apiSecret, ...name] = text.split(":");
  if (!apiKey || !apiSecret) throw new UsageError(`--org takes KEY:SECRET or KEY:SECRET:NAME, got "${text}"`);
  return name.length > 0 ? { apiKey, apiSecret, name: name.join(":") } : { apiKey, apiSecret };
}

/** --auto-progress: milliseconds (0 or more), or "off" (false); undefined when absent. */
export function autoProgressFlag(value: string | boolean | undefined): number | false | undefined {
  if (value === undefined) return undefined;
  const ms = value === "off" ? false : Number(value);
  if (typeof ms === "number" && !(ms >= 0)) throw new UsageError('--auto-progress must be milliseconds or "off"');
  return ms;
}

/** --db-durability: "normal" or "full"; undefined when absent. */
export function durabilityFlag(value: string | boolean | undefined): Durability | undefined {
  if (value !== undefined && value !== "normal" && value !== "full")
    throw new UsageError('--db-durability must be "normal" or "full"');
  return value;
}

/** --request-log-size: entries of the request log kept per organization (1 or more); undefined when absent. */
export function requestLogSizeFlag(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  const size = Number(value);
  if (!Number.isSafeInteger(size) || size < 1) throw new UsageError("--request-log-size must be a whole number ≥ 1");
  return size;
}

/** A whole number flag within bounds; undefined when absent. */
function wholeFlag(value: string | boolean | undefined, flag: string, max: number, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== "string" || !/^\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}`);
  return n;
}

/** --chaos-faults: a comma-separated list of the sandbox's fault kinds. */
function chaosFaultsFlag(value: string | boolean | undefined): ChaosOptions["faults"] {
  if (typeof value !== "string") return undefined;
  const known: readonly string[] = [...REQUEST_FAULTS, ...WEBHOOK_FAULTS];
  const faults = value.split(",").map((f) => f.trim().toUpperCase());
  const unknown = faults.filter((f) => !known.includes(f));
  if (unknown.length > 0 || faults.length === 0)
    throw new UsageError(`unknown fault ${unknown.join(", ")} in --chaos-faults: one of ${known.join(", ")}`);
  return faults as ChaosOptions["faults"];
}

/**
 * --chaos RATE (0 to 1) with --chaos-seed, --chaos-faults and --chaos-max-delay-ms; undefined without --chaos.
 *
 * @example
 * chaosFlags({ chaos: "0.05", "chaos-seed": "42" }); // { rate: 0.05, seed: 42 }
 */
export function chaosFlags(values: CommandContext["values"]): SandboxOptions["chaos"] {
  const others = ["chaos-seed", "chaos-faults", "chaos-max-delay-ms"].filter((f) => values[f] !== undefined);
  if (values.chaos === undefined) {
    if (others.length > 0) throw new UsageError(`--${others[0]} needs --chaos RATE`);
    return undefined;
  }
  const rate = Number(values.chaos);
  if (typeof values.chaos !== "string" || values.chaos.trim() === "" || !(rate >= 0 && rate <= 1))
    throw new UsageError("--chaos must be a share of requests from 0 to 1 (0.05 is 5 %)");
  const seed = wholeFlag(values["chaos-seed"], "--chaos-seed", 0xffffffff);
  const faults = chaosFaultsFlag(values["chaos-faults"]);
  const maxDelayMs = wholeFlag(values["chaos-max-delay-ms"], "--chaos-max-delay-ms", 300_000, 1);
  return {
    rate,
    ...(seed === undefined ? {} : { seed }),
    ...(faults ? { faults } : {}),
    ...(maxDelayMs === undefined ? {} : { maxDelayMs }),
  };
}

/** The credentials given (flags or environment) as the first organization, then each --org; none: generate one. */
function organizationsOf(
  given: Credentials | undefined,
  others: SandboxOrganizationOptions[],
): SandboxOrganizationOptions[] | undefined {
  if (!given && others.length === 0) return undefined;
  return [...(given ? [{ name: "Default organization", ...given }] : []), ...others];
}

/**
 * The sandbox's options from the command line (flags checked in usage order); `log` takes --verbose's lines.
 *
 * @example
 * sandboxOptions({ port: "0", "auto-progress": "off" }, {}, console.error); // { port: 0, autoProgressMs: false, ... }
 */
export function sandboxOptions(
  values: CommandContext["values"],
  env: CommandContext["env"],
  log: (line: string) => void,
): SandboxOptions {
  const port = portFlag(values.port, 4020);
  const autoProgressMs = autoProgressFlag(values["auto-progress"]);
  const given = readCredentials(values, env);
  const others = ((values.org as unknown as string[] | undefined) ?? []).map(parseOrganization);
  const durability = durabilityFlag(values["db-durability"]);
  const organizations = organizationsOf(given, others);
  const logSize = requestLogSizeFlag(values["request-log-size"]);
  const chaos = chaosFlags(values);
  const adminToken =
    typeof values["admin-token"] === "string" ? values["admin-token"] : env.EXCHANGE_KIT_SANDBOX_ADMIN_TOKEN;
  const webhookAllowed = ((values["webhook-allow"] as unknown as string[] | undefined) ?? []).flatMap((v) =>
    v.split(",").filter((entry) => entry.trim() !== ""),
  );
  return {
    port,
    host: hostFlag(values.host),
    ...(typeof values.db === "string" ? { db: values.db } : {}),
    ...(durability === undefined ? {} : { dbDurability: durability }),
    ...(organizations ? { organizations } : {}),
    ...(autoProgressMs === undefined ? {} : { autoProgressMs }),
    duplicateDeliveries: values["duplicate-deliveries"] === true,
    ...(logSize === undefined ? {} : { requestLog: { maxEntries: logSize } }),
    ...(values["no-dashboard"] === true ? { dashboard: false } : {}),
    ...(chaos ? { chaos } : {}),
    ...(adminToken ? { adminToken } : {}),
    ...(webhookAllowed.length > 0 ? { webhookAllowedTargets: webhookAllowed } : {}),
    ...(values.verbose === true ? { logger: { info: log, warn: log, error: log } } : {}),
  };
}

/** The dashboard part of the ready line: the link of each organization (by name when there are several). */
function dashboardText(box: Sandbox, out: Output): string {
  if (box.dashboard.length === 0) return "";
  if (box.dashboard.length === 1) return `; dashboard ${out.bold(box.dashboard[0]!.url)}`;
  return `; dashboards ${box.dashboard.map((d) => `${d.name} ${out.bold(d.url)}`).join(", ")}`;
}

/** The environment a client of this sandbox reads: its URL and the first organization's key (and secret, if generated). */
export function clientEnvironment(box: Pick<Sandbox, "url" | "organizations">, generated: boolean) {
  const org = box.organizations[0]!;
  return {
    EXCHANGE_BASE_URL: box.url,
    EXCHANGE_API_KEY: org.apiKey,
    ...(generated ? { EXCHANGE_API_SECRET: org.apiSecret } : {}),
  };
}

/**
 * The ready line: the URL and the API keys, and the secret when it was generated (no credentials were given); then
 * a new dashboard link of every organization of the database (its token opens that organization only, on every
 * replica); then the `export` line to paste into
 * the shell of the app. A given secret is never printed: the line says where it is.
 */
function announceReady(out: Output, box: Sandbox, generated: boolean, telemetry?: Telemetry): void {
  const org = box.organizations[0]!;
  const keys = box.organizations.map((o) => o.apiKey);
  const dashboard = box.dashboard.map((d) => ({ name: d.name, apiKey: d.apiKey, url: d.url }));
  const env = clientEnvironment(box, generated);
  out.result(
    {
      ready: true,
      url: box.url,
      apiKey: org.apiKey,
      ...(generated ? { apiSecret: org.apiSecret } : {}),
      organizations: keys,
      dashboard,
      env,
      ...(box.chaos ? { chaos: box.chaos } : {}),
      ...(telemetry ? { otel: { endpoint: telemetry.endpoint } } : {}),
    },
    [
      `${out.green("sandbox ready")} at ${out.bold(box.url)} (API key${keys.length > 1 ? "s" : ""} ${keys.join(", ")}${generated ? `, generated secret ${org.apiSecret}` : ""})${dashboardText(box, out)}${telemetry ? `; traces to ${telemetry.endpoint}` : ""}`,
      `  ${exportLine(env)}${generated ? "" : "   # EXCHANGE_API_SECRET: the secret it was started with"}`,
    ].join("\n"),
  );
  if (box.chaos) out.line(chaosLine(box.chaos));
}

/** The sandbox's option names as the flags (or variables) that set them, for its option errors. */
const FLAG_OF_OPTION: ReadonlyArray<[RegExp, string]> = [
  [/^adminToken\b/, "--admin-token (or EXCHANGE_KIT_SANDBOX_ADMIN_TOKEN)"],
  [/^requestLog\.maxEntries\b/, "--request-log-size"],
  [/^duplicate apiKey\b/, "--org: duplicate API key"],
];

/**
 * A bad option the sandbox refused (a TypeError naming its option, e.g. "adminToken must be at least 16
 * characters") as a usage error naming the flag that set it; anything else unchanged.
 *
 * @example
 * optionAsFlag(new TypeError("adminToken must be at least 16 characters")).message;
 * // "--admin-token (or EXCHANGE_KIT_SANDBOX_ADMIN_TOKEN) must be at least 16 characters"
 */
export function optionAsFlag(error: unknown): unknown {
  if (!(error instanceof TypeError)) return error;
  for (const [option, flag] of FLAG_OF_OPTION)
    if (option.test(error.message)) return new UsageError(error.message.replace(option, flag));
  return error;
}

/** What chaos mode does, with the seed that replays the run. */
export function chaosLine(chaos: { rate: number; seed: number }): string {
  const percent = Number((chaos.rate * 100).toPrecision(6));
  return `chaos mode: a random fault on ${percent} % of requests and webhook events (seed ${chaos.seed}; --chaos-seed ${chaos.seed} replays it)`;
}

export const sandbox: Command = {
  usage: `exchange-kit sandbox [--port 4020] [--db ./sandbox.db] [--api-key K --api-secret S] [--json]
  credentials default to EXCHANGE_API_KEY / EXCHANGE_API_SECRET; without any, a pair is generated and printed
  --db FILE            keep state in a SQLite file across restarts (default: in memory); an answered write
                       survives kill -9; one sandbox per file (a second one on it refuses to start)
  --db postgres://USER:PASSWORD@HOST:5432/NAME
                       keep state in a PostgreSQL database instead; replicas on one database are one sandbox; any
                       other URL (mysql://...) is refused
  --db-durability full also fsync every commit, to survive power loss (default normal: process crashes)
  --auto-progress MS   delay before KYC, banks and orders move on by themselves (default 200; "off" to drive them)
  --duplicate-deliveries  deliver every webhook event twice (test your deduplication)
  --chaos RATE         a random fault on RATE (0 to 1; 0.05 = 5 %) of the requests and webhook events: errors,
                       delays, resets, answers dropped after the commit, duplicate/late/out-of-order deliveries
  --chaos-seed N       the seed (0 to 4294967295) that makes a chaos run reproducible (random and printed if absent)
  --chaos-faults K,K   only these fault kinds (see exchange-kit fault --help)
  --chaos-max-delay-ms MS  the longest random wait of DELAY, DELAYED_DELIVERY, OUT_OF_ORDER (default 500)
  --org KEY:SECRET[:NAME]  another organization with its own credentials (repeatable); organizations are kept
                       in the database, and a key it holds with another secret takes the one given here
  --admin-token T      turn on the admin API, so \`exchange-kit org add\` can add organizations while it runs
                       (default: EXCHANGE_KIT_SANDBOX_ADMIN_TOKEN; at least 16 characters; off without one)
  --request-log-size N requests kept in the request log per organization (default 10000; see exchange-kit logs)
  --webhook-allow HOST[:PORT]  with --host beyond loopback (0.0.0.0), webhooks are not delivered to the host's
                       own or private addresses; this allows one such target (repeatable, or comma-separated)
  --no-dashboard       do not serve the dashboard at /_dashboard/ (each organization's link is in the ready line)
  --verbose            log each request (with its err_code) and each delivery on stderr
  --otel               export the sandbox's spans with the OpenTelemetry Node SDK over OTLP/HTTP, configured by
                       OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME (the SDK's
                       defaults otherwise; http://localhost:4318); needs npm install @opentelemetry/api
                       @opentelemetry/sdk-node @opentelemetry/exporter-trace-otlp-http
  prints one ready line, then the export line to paste into your app's shell (EXCHANGE_BASE_URL,
  EXCHANGE_API_KEY, and EXCHANGE_API_SECRET when it generated one); needs Node 22.13+ (node:sqlite)`,
  options: {
    port: { type: "string" },
    host: { type: "string" },
    db: { type: "string" },
    "db-durability": { type: "string" },
    "api-key": { type: "string" },
    "api-secret": { type: "string" },
    "auto-progress": { type: "string" },
    "duplicate-deliveries": { type: "boolean" },
    chaos: { type: "string" },
    "chaos-seed": { type: "string" },
    "chaos-faults": { type: "string" },
    "chaos-max-delay-ms": { type: "string" },
    org: { type: "string", multiple: true },
    "admin-token": { type: "string" },
    "request-log-size": { type: "string" },
    "webhook-allow": { type: "string", multiple: true },
    verbose: { type: "boolean" },
    "no-dashboard": { type: "boolean" },
    otel: { type: "boolean" },
  },
  async run({ values, out, env, signal, streams }) {
    const options = sandboxOptions(values, env, (line) => streams.stderr.write(`${line}\n`));
    const { createSandbox } = await loadSandbox("sandbox");
    // Before the sandbox starts, so its first request is traced.
    const telemetry = values.otel === true ? await startTelemetry("sandbox", env) : undefined;
    try {
      const box = await createSandbox(options).catch((error: unknown) => {
        throw optionAsFlag(error);
      });
      announceReady(out, box, options.organizations === undefined, telemetry);
      await untilAborted(signal);
      await box.close();
    } finally {
      // Flushes the spans not yet exported, the last requests' included.
      await telemetry?.shutdown();
    }
    out.line(out.dim("sandbox stopped"));
    return 0;
  },
};
