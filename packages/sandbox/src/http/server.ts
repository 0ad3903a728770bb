// node:http with a segment-trie router and no framework. A request goes through small stages: route (404/405)
// → read the body (size limit) → the pipeline (decode, authenticate, parse, validate, dispatch in one
// transaction; see pipeline.ts) → respond in the envelope. Between authentication and the rest, the fault stage
// (faults/request-faults.ts), when there is one, may answer an error, wait, or drop the connection instead. Every failure, including unexpected exceptions, ends
// in the document's error envelope; the server keeps serving. No client holds a connection longer than the
// timeouts allow (timeouts.ts).
import { createServer, type Server, type ServerResponse } from "node:http";
import type { FaultStage } from "../faults/request-faults.js";
import type { Logger } from "../logger.js";
import { precompile } from "../spec/request-validation.js";
import { ApiError } from "./api-error.js";
import { answerClientError } from "./client-error.js";
import { admitRequest, type PipelineOptions, type RoutedRequest, runAdmitted } from "./pipeline.js";
import { readBody } from "./read-body.js";
import { requestTarget } from "./request-target.js";
import { sendError, sendResult } from "./respond.js";
import type { HandlerResult, RouteDefinition } from "./route.js";
import { Router } from "./router.js";
import { methodNotAllowed, pathNotFound } from "./routing-errors.js";
import { DEFAULT_TIMEOUTS, serverTimeoutOptions, type ServerTimeouts } from "./timeouts.js";
import { type RequestTrace, traceRequest } from "../tracing/tracing.js";

export interface ServerOptions<D> extends PipelineOptions<D> {
  routes: Array<RouteDefinition<D>>;
  bodyLimitBytes: number;
  logger: Logger;
  /** Node's defaults when absent. */
  timeouts?: ServerTimeouts;
  /** Picks and applies faults (faults/request-faults.ts) once a request is authenticated; none when absent. */
  faults?: FaultStage;
}

/** The router over every route, with each operation's validators compiled up front. */
function buildRouter<D>(routes: ReadonlyArray<RouteDefinition<D>>): Router<RouteDefinition<D>> {
  const router = new Router<RouteDefinition<D>>();
  for (const route of routes) {
    router.add(route.method, route.path, route);
    if (route.operation) precompile(route.operation, route.validation);
  }
  return router;
}

/**
 * A request's log line (`--verbose`): method, URL, status and, for an error answer, the err_code it carried.
 *
 * @example
 * requestLogLine("POST", "/pis/api/v1/payin/initiate", 400, "PAYIN_DUPLICATE_CLIENT_REF_ID");
 * // "POST /pis/api/v1/payin/initiate 400 PAYIN_DUPLICATE_CLIENT_REF_ID"
 */
export function requestLogLine(
  method: string,
  url: string,
  status: number | "no answer",
  errCode: string | undefined,
): string {
  return `${method} ${url} ${status}${errCode === undefined ? "" : ` ${errCode}`}`;
}

/** What a thrown value answers: an ApiError as itself; anything else, reported, as 500 SYS_INTERNAL_ERROR. */
export function errorAnswer(caught: unknown, report: (detail: string) => void): ApiError {
  if (caught instanceof ApiError) return caught;
  report(caught instanceof Error ? (caught.stack ?? caught.message) : String(caught));
  return new ApiError(500, "SYS_INTERNAL_ERROR", "Internal Server Error");
}

/**
 * The result to answer: the pipeline's, or what the fault stage makes of the request once it is authenticated;
 * undefined when a fault leaves the request unanswered.
 */
async function outcome<D>(
  res: ServerResponse,
  request: RoutedRequest<D>,
  options: ServerOptions<D>,
  trace: RequestTrace,
): Promise<HandlerResult | undefined> {
  const admitted = admitRequest(request, options);
  const { faults } = options;
  if (faults && admitted.org) {
    const { method, target, route } = request;
    request.fault = faults.take(admitted.org.id, {
      method,
      path: target.path,
      operationId: route.operation?.operationId,
    });
  }
  // The handler runs synchronously under the request's trace, which is then the cause of what it emits.
  const run = () => trace.dispatch(() => runAdmitted(request, admitted, options));
  return request.fault && faults ? faults.apply(request.fault, res, run) : run();
}

export function createApiServer<D>(options: ServerOptions<D>): Server {
  const router = buildRouter(options.routes);
  const { logger } = options;

  const logAnswered = (method: string, url: string, res: ServerResponse, errCode?: string) => {
    if (logger.enabled) logger.info(requestLogLine(method, url, res.statusCode, errCode));
  };

  async function answer(res: ServerResponse, request: RoutedRequest<D>, url: string, trace: RequestTrace) {
    let answered = true;
    let errCode: string | undefined;
    let sentCode: string | undefined; // the code answered: narrowed to the operation's list (sendError)
    try {
      const result = await outcome(res, request, options, trace);
      if (result) sendResult(res, result);
      else answered = false;
    } catch (caught) {
      const error = errorAnswer(caught, (detail) => logger.error(`${request.method} ${url} failed: ${detail}`));
      errCode = error.code;
      sentCode = sendError(res, request.route.operation, error);
    }
    trace.end(answered ? res.statusCode : undefined, errCode, request.fault?.kind);
    const fault = request.fault ? ` fault ${request.fault.kind}` : "";
    const status = answered ? res.statusCode : "no answer";
    if (logger.enabled) logger.info(`${requestLogLine(request.method, url, status, sentCode)}${fault}`);
  }

  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const server = createServer(serverTimeoutOptions(timeouts), (req, res) => {
    const url = req.url ?? "/";
    const method = req.method ?? "GET";
    const target = requestTarget(url);
    const found = router.lookup(method, target.path);
    if (found.kind !== "found") {
      req.resume();
      const error = found.kind === "not-found" ? pathNotFound() : methodNotAllowed(method, found.allowed);
      logAnswered(method, url, res, sendError(res, undefined, error));
      return;
    }
    const { route, params } = found.match;
    const trace = traceRequest(method, req.headers, route.path, route.operation?.operationId);
    readBody(req, options.bodyLimitBytes).then(
      (raw) => answer(res, { method, headers: req.headers, target, route, pathParams: params, raw }, url, trace),
      (error: unknown) => {
        if (error instanceof ApiError) logAnswered(method, url, res, sendError(res, route.operation, error));
        else res.destroy();
        trace.end(res.headersSent ? res.statusCode : undefined, error instanceof ApiError ? error.code : undefined);
      },
    );
  });

  server.on("clientError", answerClientError);
  return server;
}
