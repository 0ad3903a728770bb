// node:http with a segment-trie router and no framework. A request goes through small stages: route (404/405)
// → read the body (size limit) → the pipeline (decode, authenticate, parse, validate, dispatch in one
// transaction; see pipeline.ts) → respond in the envelope. Every failure, including unexpected exceptions, ends
// in the document's error envelope; the server keeps serving. No client holds a connection longer than the
// timeouts allow (timeouts.ts).
import { createServer, type Server, type ServerResponse } from "node:http";
import type { Logger } from "../logger.js";
import { precompile } from "../spec/request-validation.js";
import { ApiError } from "./api-error.js";
import { answerClientError } from "./client-error.js";
import { processRequest, type PipelineOptions, type RoutedRequest } from "./pipeline.js";
import { readBody } from "./read-body.js";
import { requestTarget } from "./request-target.js";
import { sendError, sendResult } from "./respond.js";
import type { RouteDefinition } from "./route.js";
import { Router } from "./router.js";
import { methodNotAllowed, pathNotFound } from "./routing-errors.js";
import { DEFAULT_TIMEOUTS, serverTimeoutOptions, type ServerTimeouts } from "./timeouts.js";

export interface ServerOptions<D> extends PipelineOptions<D> {
  routes: Array<RouteDefinition<D>>;
  bodyLimitBytes: number;
  logger: Logger;
  /** Node's defaults when absent. */
  timeouts?: ServerTimeouts;
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
export function requestLogLine(method: string, url: string, status: number, errCode: string | undefined): string {
  return `${method} ${url} ${status}${errCode === undefined ? "" : ` ${errCode}`}`;
}

/** What a thrown value answers: an ApiError as itself; anything else, reported, as 500 SYS_INTERNAL_ERROR. */
export function errorAnswer(caught: unknown, report: (detail: string) => void): ApiError {
  if (caught instanceof ApiError) return caught;
  report(caught instanceof Error ? (caught.stack ?? caught.message) : String(caught));
  return new ApiError(500, "SYS_INTERNAL_ERROR", "Internal Server Error");
}

export function createApiServer<D>(options: ServerOptions<D>): Server {
  const router = buildRouter(options.routes);
  const { logger } = options;

  const logAnswered = (method: string, url: string, res: ServerResponse, errCode?: string) => {
    if (logger.enabled) logger.info(requestLogLine(method, url, res.statusCode, errCode));
  };

  function answer(res: ServerResponse, request: RoutedRequest<D>, url: string): void {
    let errCode: string | undefined;
    try {
      sendResult(res, processRequest(request, options));
    } catch (caught) {
      errCode = sendError(
        res,
        request.route.operation,
        errorAnswer(caught, (detail) => logger.error(`${request.method} ${url} failed: ${detail}`)),
      );
    }
    logAnswered(request.method, url, res, errCode);
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
    readBody(req, options.bodyLimitBytes).then(
      (raw) => answer(res, { method, headers: req.headers, target, route, pathParams: params, raw }, url),
      (error: unknown) => {
        if (error instanceof ApiError) logAnswered(method, url, res, sendError(res, route.operation, error));
        else res.destroy();
      },
    );
  });

  server.on("clientError", answerClientError);
  return server;
}
