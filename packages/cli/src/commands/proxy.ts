// exchange-kit proxy: stands between a client and the real service, forwards every request and answer byte for byte
// (a signed body arrives as it was signed, unlike a validating proxy that re-encodes JSON), and checks both against
// the published spec (or, with --sandbox, the sandbox's), until Ctrl-C.
import { readSpec } from "@exchange-kit/openapi";
import { type ContractViolation, createContractChecker } from "@exchange-kit/sandbox";
import { type Output, UsageError } from "../output.js";
import type { Command } from "./command.js";
import { type ProxyHandlers, startProxy } from "./proxy/forward.js";
import { recordOf, violationFile, violationLine, type ViolationRecord } from "./proxy/violations.js";

function parseTarget(value: string | boolean | undefined): URL {
  if (typeof value !== "string") throw new UsageError("--target URL is required (the service to forward to)");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--target is not a URL: ${value}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError("--target must be an http or https URL");
  if (url.search || url.hash) throw new UsageError("--target takes no query or fragment");
  return url;
}

function parsePort(value: string | boolean | undefined): number {
  const port = value === undefined ? 4030 : Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError("--port must be a port number");
  return port;
}

/** What the proxy counts and prints while it runs. */
function reporter(out: Output, file: ReturnType<typeof violationFile>) {
  const tally = { exchanges: 0, violations: 0 };
  const report = (found: ContractViolation[], method: string, url: string, status?: number) => {
    for (const violation of found) {
      const record: ViolationRecord = recordOf(violation, method, url, status);
      tally.violations++;
      out.result({ violation: record }, out.red(violationLine(record)));
      file.write(record);
    }
  };
  return { tally, report };
}

function handlersFor(
  out: Output,
  report: ReturnType<typeof reporter>["report"],
  tally: { exchanges: number },
  against: "service" | "sandbox",
): ProxyHandlers {
  const checker = createContractChecker({ against });
  const path = (url: string) => url.split("?")[0];
  // A body the check skips is said, with why, so "no violation" is not read as "checked and clean".
  const warnUnchecked = (request: { method: string; url: string }, part: string, reason: string) =>
    out.result(
      { unchecked: { method: request.method, path: path(request.url), part, reason } },
      out.dim(`${request.method} ${path(request.url)}: ${part} body not checked (${reason})`),
    );
  return {
    onRequest(request) {
      report(checker.checkRequest(request), request.method, request.url);
      if (request.unchecked !== undefined) warnUnchecked(request, "request", request.unchecked);
    },
    onResponse(request, response) {
      tally.exchanges++;
      const operationId = checker.operationFor(request.method, request.url);
      const found = checker.checkResponse(request, response);
      out.result(
        {
          exchange: {
            method: request.method,
            path: path(request.url),
            status: response.status,
            operationId: operationId ?? null,
          },
        },
        `${request.method} ${path(request.url)} -> ${response.status}${operationId ? ` (${operationId})` : ""}`,
      );
      report(found, request.method, request.url, response.status);
      if (response.unchecked !== undefined) warnUnchecked(request, "response", response.unchecked);
    },
    onFailure(request, reason) {
      tally.exchanges++;
      out.result(
        { failure: { method: request.method, path: path(request.url), reason } },
        out.red(`${request.method} ${path(request.url)}: the target did not answer (${reason}); the client got a 502`),
      );
    },
  };
}

export const proxy: Command = {
  usage: `exchange-kit proxy --target URL [--port 4030] [--host 127.0.0.1] [--sandbox] [--violations FILE] [--fail-on-violation] [--json]
  Forwards every request to --target and every answer back untouched (method, path, query, headers but the
  hop-by-hop ones, body bytes: a signed request stays signed; Host is the target's) and checks both against the
  installed @exchange-kit/openapi spec: operation, credentials present, parameters, body, status, answer body.
  --sandbox             check against the sandbox's spec, for a --target that is exchange-kit sandbox: its rules
                        (e.g. a webhook_url on http:// loopback) instead of the service's (which requires https://)
  Each violation is printed with the operationId, a JSON pointer and the rule, never a value or a credential;
  a path the spec does not have is a violation too, and is forwarded all the same.
  --violations FILE     append each violation to FILE as a JSON line
  --fail-on-violation   exit 1 at the end of the run (Ctrl-C, SIGTERM) if there was any violation`,
  options: {
    target: { type: "string" },
    port: { type: "string" },
    host: { type: "string" },
    violations: { type: "string" },
    "fail-on-violation": { type: "boolean" },
    sandbox: { type: "boolean" },
  },
  async run({ values, out, signal }) {
    const target = parseTarget(values.target);
    const port = parsePort(values.port);
    const host = typeof values.host === "string" ? values.host : "127.0.0.1";
    const file = violationFile(typeof values.violations === "string" ? values.violations : undefined);
    const { tally, report } = reporter(out, file);
    const against = values.sandbox === true ? "sandbox" : "service";
    const server = await startProxy(target, { port, host }, handlersFor(out, report, tally, against));
    const version = readSpec().info.version;
    const whose = against === "sandbox" ? "the sandbox's spec" : "spec";
    out.result(
      { ready: true, url: server.url, target: target.href, spec: version, contract: against },
      `${out.green("proxy ready")} at ${out.bold(server.url)} -> ${target.href} (checked against ${whose} ${version})`,
    );
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      signal.addEventListener("abort", () => resolve(), { once: true });
    });
    await server.close();
    const failure = await file.flush();
    if (failure) out.error("VIOLATIONS_FILE", `could not write ${String(values.violations)}: ${failure.message}`);
    out.result(
      { stopped: true, exchanges: tally.exchanges, violations: tally.violations },
      `proxy stopped: ${tally.exchanges} exchange${tally.exchanges === 1 ? "" : "s"}, ${tally.violations} violation${tally.violations === 1 ? "" : "s"}`,
    );
    return (tally.violations > 0 && values["fail-on-violation"] === true) || failure ? 1 : 0;
  },
};
