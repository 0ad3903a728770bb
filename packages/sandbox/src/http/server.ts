// node:http with a segment-trie router and no framework. A request goes through small stages: route (404/405)
// → read the body (size limit) → the pipeline (decode, authenticate, parse, validate, dispatch in one
// transaction; see pipeline.ts) → respond in the envelope. Every failure, including unexpected exceptions, ends
// in the document's error envelope; the server keeps serving. No client holds a connection longer than the
// timeouts allow (timeouts.ts).
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { performance } from "node:perf_hooks";
import type { Logger } from "../logger.js";
import { precompile } from "../spec/request-validation.js";
import { ApiError } from "./api-error.js";
import { answerClientError } from "./client-error.js";
import { processRequest, type PipelineOptions, type RoutedRequest } from "./pipeline.js";
import { readBody } from "./read-body.js";
import { type RequestTarget, requestTarget } from "./request-target.js";
import { type SentAnswer, sendError, sendResult } from "./respond.js";
import type { RouteDefinition } from "./route.js";
import { Router } from "./router.js";
import { methodNotAllowed, pathNotFound } from "./routing-errors.js";
import { DEFAULT_TIMEOUTS, serverTimeoutOptions, type ServerTimeouts } from "./timeouts.js";

/** A request the server answered, as observers (the request log) see it. */
export interface AnsweredRequest {
  method: string;
  target: RequestTarget;
  headers: IncomingHttpHeaders;
  /** The route it matched; undefined when it matched none (404, 405). */
  route: RouteDefinition<unknown> | undefined;
  /** The body as read; undefined when it was not read. */
  raw: Buffer | undefined;
  answer: SentAnswer;
  /** performance.now() when the request arrived. */
  startedAt: number;
}

export interface ServerOptions<D> extends PipelineOptions<D> {
  routes: Array<RouteDefinition<D>>;
  /** Told of every answered request, after the answer is written. */
  onAnswered?: (answered: AnsweredRequest) => void;
  /** Serves requests outside the API (the dashboard) itself: true when it took the request. */
  intercept?: (req: IncomingMessage, res: ServerResponse, target: RequestTarget) => boolean;
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

/** What a thrown value answers: an ApiError as itself; anything else, reported, as 500 SYS_INTERNAL_ERROR. */
export function errorAnswer(caught: unknown, report: (detail: string) => void): ApiError {
  if (caught instanceof ApiError) return caught;
  report(caught instanceof Error ? (caught.stack ?? caught.message) : String(caught));
  return new ApiError(500, "SYS_INTERNAL_ERROR", "Internal Server Error");
}

export function createApiServer<D>(options: ServerOptions<D>): Server {
  const router = buildRouter(options.routes);
  const { logger } = options;

  function answer(res: ServerResponse, request: RoutedRequest<D>, url: string): SentAnswer {
    let sent: SentAnswer;
    try {
      sent = sendResult(res, processRequest(request, options));
    } catch (caught) {
      sent = sendError(
        res,
        request.route.operation,
        errorAnswer(caught, (detail) => logger.error(`${request.method} ${url} failed: ${detail}`)),
      );
    }
    if (logger.enabled) logger.info(`${request.method} ${url} ${res.statusCode}`);
    return sent;
  }

  const observe = (seen: Omit<AnsweredRequest, "route"> & { route: RouteDefinition<D> | undefined }) =>
    options.onAnswered?.(seen as AnsweredRequest);

  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const server = createServer(serverTimeoutOptions(timeouts), (req, res) => {
    const startedAt = performance.now();
    const url = req.url ?? "/";
    const method = req.method ?? "GET";
    const target = requestTarget(url);
    if (options.intercept?.(req, res, target)) return;
    const headers = req.headers;
    const found = router.lookup(method, target.path);
    if (found.kind !== "found") {
      req.resume();
      const error = found.kind === "not-found" ? pathNotFound() : methodNotAllowed(method, found.allowed);
      const sent = sendError(res, undefined, error);
      observe({ method, target, headers, route: undefined, raw: undefined, answer: sent, startedAt });
      return;
    }
    const { route, params } = found.match;
    readBody(req, options.bodyLimitBytes).then(
      (raw) => {
        const sent = answer(res, { method, headers, target, route, pathParams: params, raw }, url);
        observe({ method, target, headers, route, raw, answer: sent, startedAt });
      },
      (error: unknown) => {
        if (!(error instanceof ApiError)) {
          res.destroy();
          return;
        }
        const sent = sendError(res, route.operation, error);
        observe({ method, target, headers, route, raw: undefined, answer: sent, startedAt });
      },
    );
  });

  server.on("clientError", answerClientError);
  return server;
}
