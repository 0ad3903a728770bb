// The stages between the body's bytes and the handler's result, in the order the answers depend on: decode
// (UTF-8, nesting) → authenticate (over the raw bytes) → parse JSON → collect path and query values (no U+0000
// in any, see nul-text.ts) → validate
// against the operation → dispatch in one transaction. Each stage throws the ApiError that answers the request.
import type { IncomingHttpHeaders } from "node:http";
import { validateRequest } from "../spec/request-validation.js";
import { authenticate, type OrganizationsByKey } from "./auth.js";
import { decodeBody, parseBody } from "./body.js";
import { refuseNul, refuseNulInQuery } from "../api/nul-text.js";
import { requestOrigin, requestValues } from "./request-target.js";
import type { RequestFault } from "./stages.js";
import type {
  HandlerResult,
  JsonObject,
  Organization,
  RequestContext,
  RequestTarget,
  RouteDefinition,
} from "../api/route.js";

export interface PipelineOptions<D> {
  organizationsByKey: OrganizationsByKey<Organization>;
  domain: D;
  /**
   * Runs a handler as one unit of storage work: committed before the answer is written, or rolled back.
   * `onlyReads`: a GET, which may read clock offsets and settings from the replica's cache. `org`: the
   * authenticated organization (its state is read ahead), undefined on public routes.
   */
  transaction?: <R>(work: () => Promise<R>, onlyReads?: boolean, org?: string) => Promise<R>;
  /** Run before a request reads anything: the store checks its cache is current (store.freshenCache). */
  freshen?: () => Promise<void>;
  /**
   * Runs a request against the cache as it is (no freshen first), checked once inside its first transaction
   * (Store.optimistically): stale means nothing of it was committed and it must run again after freshen.
   */
  optimistic?: <R>(request: () => Promise<R>) => Promise<{ stale: true } | { stale: false; result: R }>;
}

/** A request the router matched, with its whole body read. */
export interface RoutedRequest<D> {
  method: string;
  headers: IncomingHttpHeaders;
  target: RequestTarget;
  route: RouteDefinition<D>;
  /** The path template's values, decoded. */
  pathParams: Readonly<Record<string, string>>;
  raw: Buffer;
  /** The fault the fault stage applied to this request, if any (faults/), for whatever records requests. */
  fault?: RequestFault;
  /** The organization its signature verified for, once it did (for the request log: only such requests enter it). */
  signedBy?: Organization;
}

/** A request past its first stages: its body decoded and its signature checked. */
export interface AdmittedRequest {
  text: string | undefined;
  /** The organization it is signed for; undefined for public routes. */
  org: Organization | undefined;
}

/** The organization the request is signed for; undefined for public routes, which are not signed. */
async function authenticateRoute<D>(
  route: RouteDefinition<D>,
  headers: IncomingHttpHeaders,
  raw: Buffer,
  text: string | undefined,
  organizationsByKey: OrganizationsByKey<Organization>,
): Promise<Organization | undefined> {
  if (route.public) return undefined;
  return await authenticate(headers, text === undefined ? undefined : { raw, text }, organizationsByKey);
}

/** Path, query and body against the operation's schemas (values are coerced in place); routes without one pass. */
function validate<D>(route: RouteDefinition<D>, values: Record<string, unknown>, body: JsonObject): void {
  if (!route.operation) return;
  const invalid = validateRequest(route.operation, values, body, route.validation);
  if (invalid) throw invalid;
}

/** The handler, inside the transaction when there is one: its writes are committed before anything is answered. */
async function dispatch<D>(
  route: RouteDefinition<D>,
  context: RequestContext<D>,
  transaction: PipelineOptions<D>["transaction"],
): Promise<HandlerResult> {
  if (!transaction) return route.handler(context);
  return await transaction(
    async () => route.handler(context),
    route.method === "GET" && !route.writes,
    context.org?.id,
  );
}

/** Decode and authenticate: after these the organization is known (the fault stage needs it). */
export async function admitRequest<D>(
  request: RoutedRequest<D>,
  options: PipelineOptions<D>,
  fresh = true,
): Promise<AdmittedRequest> {
  const text = decodeBody(request.raw);
  // `fresh`: the cache is checked now; else later, inside the request (PipelineOptions.optimistic).
  if (fresh) await options.freshen?.();
  const org = await authenticateRoute(request.route, request.headers, request.raw, text, options.organizationsByKey);
  return { text, org };
}

/** Parse, collect, validate and dispatch an admitted request. */
export async function runAdmitted<D>(
  request: RoutedRequest<D>,
  admitted: AdmittedRequest,
  options: PipelineOptions<D>,
): Promise<HandlerResult> {
  const { route, headers, method, target } = request;
  const { text, org } = admitted;
  const body = parseBody(method, text);
  const query = new URLSearchParams(target.search);
  refuseNul(body);
  refuseNul(request.pathParams);
  refuseNulInQuery(query);
  const params = requestValues(query, request.pathParams);
  validate(route, params, body);
  const context: RequestContext<D> = {
    // Public routes read no organization.
    org: org!,
    params,
    query,
    body,
    origin: requestOrigin(headers),
    path: target.path,
    domain: options.domain,
  };
  return await dispatch(route, context, options.transaction);
}

export async function processRequest<D>(
  request: RoutedRequest<D>,
  options: PipelineOptions<D>,
): Promise<HandlerResult> {
  return await runAdmitted(request, await admitRequest(request, options), options);
}
