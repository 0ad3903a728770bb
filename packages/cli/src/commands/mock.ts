// exchange-kit mock: Prism on the published spec (@exchange-kit/openapi), or with --sandbox on the sandbox's spec,
// until Ctrl-C.
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Output } from "../output.js";
import { meetsNodeRange } from "../node-range.js";
import { findPrism, PRISM_PACKAGE, PRISM_RANGE, type PrismInstall, startPrism } from "../prism.js";
import { ensurePortFree } from "../system-errors.js";
import type { Command, CommandContext } from "./command.js";
import { hostFlag, portFlag } from "./flags.js";
import { type ServedSpec, servedSpec } from "./mock-spec.js";
import { untilAborted } from "./until-aborted.js";

/** Any value works: Prism checks that the three signing headers are there, never the signature. */
const MOCK_CREDENTIALS = { apiKey: "mock-api-key", apiSecret: "mock-api-secret" };

export const INSTALL_PRISM = `npm install --save-dev ${PRISM_PACKAGE}@${PRISM_RANGE}`;

/** Prism where it is installed, or the error line why it cannot run (not installed, or too old a Node). */
function usablePrism(out: Output): PrismInstall | undefined {
  // The user's project first (where `npm install` puts an optional peer), then wherever this cli is installed.
  const prism = findPrism([process.cwd(), dirname(fileURLToPath(import.meta.url))]);
  if (!prism) {
    out.error(
      "PRISM_MISSING",
      `exchange-kit mock runs Prism, which is not installed. Install it with:\n  ${INSTALL_PRISM}`,
    );
    return undefined;
  }
  if (!meetsNodeRange(process.versions.node, prism.nodeRange)) {
    out.error(
      "PRISM_NODE",
      `Prism ${prism.version} needs Node ${prism.nodeRange}; this is Node ${process.versions.node}`,
    );
    return undefined;
  }
  return prism;
}

/** The ready line: the URL, the spec (its version when it is the installed one), Prism's version, credentials. */
function announceReady(out: Output, url: string, spec: ServedSpec, prism: string) {
  const label = spec.contract === "sandbox" ? `the sandbox's spec ${spec.version}` : (spec.version ?? spec.label);
  out.result(
    {
      ready: true,
      url,
      ...MOCK_CREDENTIALS,
      spec: spec.label,
      contract: spec.contract,
      ...(spec.version ? { specVersion: spec.version } : {}),
      prism,
    },
    [
      `${out.green("mock ready")} at ${out.bold(url)} (${label}, Prism ${prism})`,
      `  credentials: any, e.g. EXCHANGE_BASE_URL=${url} EXCHANGE_API_KEY=${MOCK_CREDENTIALS.apiKey} EXCHANGE_API_SECRET=${MOCK_CREDENTIALS.apiSecret}`,
      "  (the mock checks that X-API-KEY, X-TIMESTAMP and X-SIGNATURE are sent, not the signature)",
    ].join("\n"),
  );
}

export const mock: Command = {
  usage: `exchange-kit mock [--port 4010] [--host 127.0.0.1] [--dynamic] [--sandbox | --spec FILE] [--verbose] [--json]
  Prism (${PRISM_PACKAGE}, an optional peer dependency) serves @exchange-kit/openapi's openapi.yaml:
    ${INSTALL_PRISM}
  Every request is validated against the spec: without X-API-KEY, X-TIMESTAMP and X-SIGNATURE it gets a 401;
  a body, path or query that does not match gets a 4xx with the violations in the sl-violations header. Any
  credentials work: the mock never checks a signature, state or limit (the sandbox does: exchange-kit sandbox).
  Responses are the spec's examples; a response example that breaks its own schema is a 500.
  --port N      port to listen on (default 4010; 0 picks a free one, printed in the URL)
  --dynamic     generate responses from the schemas instead of serving the examples
  --sandbox     serve the sandbox's spec instead of the service's: the rules of exchange-kit sandbox, e.g. a
                webhook_url on http:// loopback (http://127.0.0.1:PORT/...), which the service's spec refuses
                (the service requires https://)
  --spec FILE   serve another copy of the spec (default: the installed @exchange-kit/openapi)
  --verbose     print Prism's log (each request and its validation) on stderr
  Choose the response per request with the Prefer header (or the __code/__example/__dynamic query parameter):
    Prefer: code=404         the operation's 404 response instead of its first 2xx
    Prefer: example=NAME     the response example with that name
    Prefer: dynamic=true     a response generated from the schema (dynamic=false: the example)
    Prefer: code=400, example=NAME   combined`,
  options: {
    port: { type: "string" },
    host: { type: "string" },
    dynamic: { type: "boolean" },
    spec: { type: "string" },
    sandbox: { type: "boolean" },
    verbose: { type: "boolean" },
  },
  async run(context) {
    const { values, out } = context;
    const port = portFlag(values.port, 4010);
    const host = hostFlag(values.host);
    const spec = servedSpec(values.spec, values.sandbox === true);
    try {
      const prism = usablePrism(out);
      if (!prism) return 1;
      await ensurePortFree(host, port);
      return await serve(prism, spec, context, { host, port });
    } finally {
      spec.dispose();
    }
  },
};

/** Runs Prism on the spec until the cli is stopped (0) or Prism stops by itself (1). */
async function serve(
  prism: PrismInstall,
  spec: ServedSpec,
  { values, out, signal, streams }: CommandContext,
  where: { host: string; port: number },
): Promise<number> {
  const verbose = values.verbose === true;
  const running = await startPrism(prism, {
    spec: spec.file,
    ...where,
    dynamic: values.dynamic === true,
    onLine: (line) => {
      if (verbose) streams.stderr.write(`${line}\n`);
    },
  });
  announceReady(out, running.url, spec, prism.version);
  const stopped = await Promise.race([untilAborted(signal).then(() => "aborted" as const), running.exited]);
  if (stopped !== "aborted") {
    out.error("PRISM_EXITED", `Prism stopped by itself (${stopped})`);
    return 1;
  }
  await running.stop();
  out.line(out.dim("mock stopped"));
  return 0;
}
