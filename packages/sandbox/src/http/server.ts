// node:http with a segment-trie router and no framework. A request goes through small stages: route (404/405)
// → read the body (size limit) → the pipeline (decode, authenticate, parse, validate, dispatch in one
// transaction; see pipeline.ts) → respond in the envelope. Between authentication and the rest, the fault stage
// (faults/request-faults.ts), when there is one, may answer an error, wait, or drop the connection instead. Every failure, including unexpected exceptions, ends
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
import { ApiError } from "../domain/api-error.js";
import { errorAnswer } from "../api/error-answer.js";
import { answerClientError } from "./client-error.js";
import { admitRequest, type PipelineOptions, type RoutedRequest, runAdmitted } from "./pipeline.js";
import { readBody } from "./read-body.js";
import { requestTarget } from "./request-target.js";
import { type SentAnswer, sendError, sendResult } from "./respond.js";
import type { HandlerResult, Organization, RequestTarget, RouteDefinition } from "../api/route.js";
import { authenticate, type OrganizationsByKey } from "./auth.js";
import { Router } from "./router.js";
import { methodNotAllowed, pathNotFound } from "./routing-errors.js";
import { DEFAULT_TIMEOUTS, serverTimeoutOptions, type ServerTimeouts } from "./timeouts.js";
import { type FaultStage, NO_TRACE, type RequestTrace, type TraceRequest } from "./stages.js";

/** A request the server answered (or a fault left unanswered), as observers (the request log) see it. */
export interface AnsweredRequest {
  method: string;
  target: RequestTarget;
  headers: IncomingHttpHeaders;
  /** The route it matched; undefined when it matched none (404, 405). */
  route: RouteDefinition<unknown> | undefined;
  /** The body as read; undefined when it was not read. */
  raw: Buffer | undefined;
  /** What was answered; status 0 when a fault (RESET, DROP_AFTER_COMMIT) sent no answer. */
  answer: SentAnswer;
  /** The kind of the fault injected into it, if any. */
  fault: string | null;
  /** performance.now() when the request arrived. */
  startedAt: number;
  /** The organization its signature verified for; undefined when none did (refused, unsigned, a public route). */
  signedBy: Organization | undefined;
}

/** What a request a fault left unanswered is logged as. */
const NO_ANSWER: SentAnswer = { status: 0, text: "", errCode: null };

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
  /** Picks and applies faults (faults/request-faults.ts) once a request is authenticated; none when absent. */
  faults?: FaultStage;
  /** Starts each request's span (tracing/tracing.ts's traceRequest); untraced when absent. */
  trace?: TraceRequest;
}

/** The router over every route, with each operation's validators compiled up front. */
function buildRouter<D>(routes: ReadonlyArray<RouteDefinition<D>>): Router<RouteDefinition<D>> {
  const router = new Router<RouteDefinition<D>>();
  for (const route of routes) {
    router.add(route.method, route.path, route);
    if (route.operation) precompile(route.operation);
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

/**
 * The result to answer: the pipeline's, or what the fault stage makes of the request once it is authenticated;
 * undefined when a fault leaves the request unanswered.
 */
async function outcome<D>(
  res: ServerResponse,
  request: RoutedRequest<D>,
  options: ServerOptions<D>,
  trace: RequestTrace,
  fresh: boolean,
): Promise<HandlerResult | undefined> {
  request.fault = undefined;
  const admitted = await admitRequest(request, options, fresh);
  request.signedBy = admitted.org;
  const { faults } = options;
  if (faults && admitted.org) {
    const { method, target, route } = request;
    request.fault = await faults.take(admitted.org.id, {
      method,
      path: target.path,
      operationId: route.operation?.operationId,
    });
  }
  // The handler runs under the request's trace, which is then the cause of what it emits.
  const run = () => trace.dispatch(async () => await runAdmitted(request, admitted, options));
  return request.fault && faults ? faults.apply(request.fault, res, run) : await run();
}

/**
 * The outcome, run against the cache as it is when the store checks it inside the request (one round trip less),
 * and once more after freshen when that check found the cache stale (nothing of the first run was committed).
 */
async function checkedOutcome<D>(
  res: ServerResponse,
  request: RoutedRequest<D>,
  options: ServerOptions<D>,
  trace: RequestTrace,
): Promise<HandlerResult | undefined> {
  if (!options.optimistic) return await outcome(res, request, options, trace, true);
  const first = await options.optimistic(async () => await outcome(res, request, options, trace, false));
  return first.stale ? await outcome(res, request, options, trace, true) : first.result;
}

/** Runs a routed request and answers it (or not, when a fault drops it); what was answered. */
async function answer<D>(
  res: ServerResponse,
  request: RoutedRequest<D>,
  url: string,
  trace: RequestTrace,
  options: ServerOptions<D>,
): Promise<SentAnswer> {
  const { logger } = options;
  let sent = NO_ANSWER;
  try {
    const result = await checkedOutcome(res, request, options, trace);
    if (result) sent = sendResult(res, result);
  } catch (caught) {
    const error = errorAnswer(caught, (detail) => logger.error(`${request.method} ${url} failed: ${detail}`));
    sent = sendError(res, request.route.operation, error);
  }
  const answered = sent !== NO_ANSWER;
  trace.end(answered ? res.statusCode : undefined, sent.errCode ?? undefined, request.fault?.kind);
  const fault = request.fault ? ` fault ${request.fault.kind}` : "";
  const status = answered ? res.statusCode : "no answer";
  // The code answered: narrowed to the operation's list by sendError.
  if (logger.enabled) logger.info(`${requestLogLine(request.method, url, status, sent.errCode ?? undefined)}${fault}`);
  return sent;
}

/**
 * The organization a request that matched no route is signed for, as if it had no body (its body is not read);
 * undefined when the signature does not verify so.
 */
async function signedWithoutBody(headers: IncomingHttpHeaders, byKey: OrganizationsByKey<Organization>) {
  try {
    return await authenticate(headers, undefined, byKey);
  } catch {
    return undefined;
  }
}

export function createApiServer<D>(options: ServerOptions<D>): Server {
  const router = buildRouter(options.routes);
  const observe = (seen: Omit<AnsweredRequest, "route"> & { route: RouteDefinition<D> | undefined }) =>
    options.onAnswered?.(seen as AnsweredRequest);
  const { logger } = options;
  const logAnswered = (method: string, url: string, res: ServerResponse, sent: SentAnswer) => {
    if (logger.enabled) logger.info(requestLogLine(method, url, res.statusCode, sent.errCode ?? undefined));
  };

  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const server = createServer(serverTimeoutOptions(timeouts), async (req, res) => {
    const startedAt = performance.now();
    const url = req.url ?? "/";
    const method = req.method ?? "GET";
    const target = requestTarget(url);
    if (options.intercept?.(req, res, target)) return;
    const headers = req.headers;
    // What every record of this request carries, whichever way it ends.
    const seen = { method, target, headers, startedAt };
    const found = router.lookup(method, target.path);
    if (found.kind !== "found") {
      req.resume();
      const error = found.kind === "not-found" ? pathNotFound() : methodNotAllowed(method, found.allowed);
      const sent = sendError(res, undefined, error);
      logAnswered(method, url, res, sent);
      const signedBy = await signedWithoutBody(headers, options.organizationsByKey);
      observe({ ...seen, route: undefined, raw: undefined, answer: sent, fault: null, signedBy });
      return;
    }
    const { route, params } = found.match;
    const trace = (options.trace ?? NO_TRACE)(method, headers, route.path, route.operation?.operationId);
    readBody(req, options.bodyLimitBytes).then(
      async (raw) => {
        const request: RoutedRequest<D> = { method, headers, target, route, pathParams: params, raw };
        const sent = await answer(res, request, url, trace, options);
        const { fault, signedBy } = request;
        observe({ ...seen, route, raw, answer: sent, fault: fault?.kind ?? null, signedBy });
      },
      (error: unknown) => {
        const sent = error instanceof ApiError ? sendError(res, route.operation, error) : NO_ANSWER;
        if (sent === NO_ANSWER) res.destroy();
        else logAnswered(method, url, res, sent);
        trace.end(res.headersSent ? res.statusCode : undefined, error instanceof ApiError ? error.code : undefined);
        if (sent !== NO_ANSWER)
          observe({ ...seen, route, raw: undefined, answer: sent, fault: null, signedBy: undefined });
      },
    );
  });

  server.on("clientError", answerClientError);
  return server;
}
