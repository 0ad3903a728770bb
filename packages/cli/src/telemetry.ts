// --otel on `exchange-kit sandbox` and `exchange-kit listen`: the OpenTelemetry Node SDK with the OTLP/HTTP trace
// exporter, configured by the standard variables (OTEL_EXPORTER_OTLP_ENDPOINT or ..._TRACES_ENDPOINT,
// OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER, ...; the SDK's defaults otherwise), so the
// sandbox's and the listener's spans join the client's trace. The SDK packages are optional peer dependencies:
// imported only with --otel, and a missing one stops the command in one line naming what to install. Traces only:
// the SDK's default metric and log exporters are not started (the commands emit neither).
import { CommandFailure } from "./output.js";

/** What --otel imports, in the order `npm install` is told them. */
export const OTEL_PACKAGES = [
  "@opentelemetry/api",
  "@opentelemetry/sdk-node",
  "@opentelemetry/exporter-trace-otlp-http",
] as const;

/** The SDK's endpoint when no variable names one (OTLP/HTTP's default port, 4318). */
const DEFAULT_TRACES_ENDPOINT = "http://localhost:4318/v1/traces";

/**
 * Where the OTLP/HTTP exporter sends spans, as the specification reads the variables: the traces endpoint as
 * given, else the base endpoint with `/v1/traces` appended, else localhost:4318.
 *
 * @example
 * tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }); // "http://collector:4318/v1/traces"
 * tracesEndpoint({}); // "http://localhost:4318/v1/traces"
 */
export function tracesEndpoint(env: Record<string, string | undefined>): string {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return DEFAULT_TRACES_ENDPOINT;
  return `${base.endsWith("/") ? base : `${base}/`}v1/traces`;
}

/** The line a missing SDK package stops the command with. */
export function missingSdkMessage(command: string, missing: readonly string[]): string {
  return (
    `exchange-kit ${command} --otel needs the OpenTelemetry SDK (${missing.join(", ")} not found): ` +
    `npm install ${OTEL_PACKAGES.join(" ")}`
  );
}

/** A running SDK: where it exports, and the shutdown that flushes what is pending. */
export interface Telemetry {
  readonly endpoint: string;
  shutdown(): Promise<void>;
}

type Import = (name: string) => Promise<unknown>;

interface SdkModules {
  sdk: typeof import("@opentelemetry/sdk-node");
  exporter: typeof import("@opentelemetry/exporter-trace-otlp-http");
}

const isNotFound = (error: unknown) =>
  ["ERR_MODULE_NOT_FOUND", "MODULE_NOT_FOUND"].includes((error as { code?: string }).code ?? "");

/** Imports the SDK packages; every one that is not installed is named in one CommandFailure. */
async function importSdk(command: string, load: Import): Promise<SdkModules> {
  const loaded = await Promise.allSettled(OTEL_PACKAGES.map((name) => load(name)));
  const missing = OTEL_PACKAGES.filter((_, i) => {
    const result = loaded[i]!;
    if (result.status === "fulfilled") return false;
    if (isNotFound(result.reason)) return true;
    throw result.reason;
  });
  if (missing.length > 0) throw new CommandFailure("OTEL_NOT_INSTALLED", missingSdkMessage(command, missing));
  const [, sdk, exporter] = loaded.map((r) => (r as PromiseFulfilledResult<unknown>).value);
  return { sdk, exporter } as SdkModules;
}

/**
 * Starts the Node SDK with the OTLP/HTTP trace exporter, before anything that records spans is loaded.
 *
 * @example
 * const telemetry = await startTelemetry("sandbox", process.env);
 * // ... serve ...
 * await telemetry.shutdown(); // flushes the spans not yet exported
 */
export async function startTelemetry(
  command: string,
  env: Record<string, string | undefined>,
  load: Import = (name) => import(name),
): Promise<Telemetry> {
  const { sdk, exporter } = await importSdk(command, load);
  const node = new sdk.NodeSDK({
    traceExporter: new exporter.OTLPTraceExporter(),
    metricReaders: [],
    logRecordProcessors: [],
  });
  node.start();
  return { endpoint: tracesEndpoint(env), shutdown: () => node.shutdown() };
}
