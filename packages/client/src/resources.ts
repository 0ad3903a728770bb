import type { OperationRef } from "./errors.js";
import { listOperations, type OperationInfo } from "./operations.js";
import { paginate } from "./paginate.js";
import { resolveInitiatedOrder } from "./initiated-order.js";
import { checkQuotation } from "./quotation.js";
import { ambiguityCheck, repeatsFreely } from "./retry-safety.js";
import { generatedResources } from "./generated/resources/index.js";
import type { MethodFactory, QuotationLike } from "./resource-types.js";
import type { Resources } from "./resource-groups.js";
import { unwrapData } from "./transport.js";
import type { RequestOptions, Send, Sent } from "./transport-types.js";
import type { RecordStatus, WebhookEventName } from "./spec.js";
import { checkBody, checkPathParams, checkQuery, fail } from "./validation.js";
import { pollUntil, statusIn, type WaitOptions } from "./wait-for.js";

type CallOptions = RequestOptions & { quotation?: QuotationLike };

interface Invocation {
  readonly path: string;
  readonly query: Record<string, unknown>;
  readonly body: unknown;
  readonly options: CallOptions;
}

/** Internal: one call of an operation, with an optional deadline inherited from an enclosing helper. */
type Runner = (args: readonly unknown[], deadlineAt?: number) => Promise<Sent>;

const OPTION_KEYS = new Set(["signal", "timeoutMs", "deadlineMs", "maxRetries", "headers", "extraQuery", "quotation"]);
// Which statuses end a wait is the client's reading (the spec does not mark statuses final), typed by the spec's
// statuses (@exchange-kit/types) so that one the spec drops fails to compile here.
const FINAL_ORDER = ["SUCCESS", "FAILED", "REFUNDED"] as const satisfies readonly (RecordStatus<"PayinOrder"> &
  RecordStatus<"PayoutOrder">)[];
const NO_REFERENCE =
  "without a client_reference_id the client cannot check the history for an order the failed attempt may have created";
const FINAL_VERIFICATION = ["VERIFIED", "FAILED"] as const satisfies readonly (WebhookEventName<"CUSTOMER"> &
  RecordStatus<"BankAccount">)[];

// Each path template split once, into text and parameter names by turns: "/a/{id}/b" -> ["/a/", "id", "/b"].
const templates = new Map<string, readonly string[]>();

/** The operation's path with `values` (in pathParams' order) filled in, each URI-encoded. */
function fillPath(op: OperationInfo, values: readonly unknown[]): string {
  if (op.pathParams.length === 0) return op.path;
  let parts = templates.get(op.path);
  if (parts === undefined) {
    parts = op.path.split(/\{([^}]+)\}/);
    templates.set(op.path, parts);
  }
  let path = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    path += encodeURIComponent(String(values[op.pathParams.indexOf(parts[i]!)])) + parts[i + 1]!;
  }
  return path;
}

/** Positional arguments -> path, query, body and options, checked before anything is sent. */
function parseArgs(op: OperationInfo, ref: OperationRef, args: readonly unknown[]): Invocation {
  const n = op.pathParams.length;
  const values = args.slice(0, n);
  checkPathParams(ref, op.pathParams, values);
  let i = n;
  let body: unknown;
  if (op.hasBody) {
    body = args[i++];
    if (body === null || typeof body !== "object" || Array.isArray(body)) fail(ref, { body: ["must be an object"] });
  }
  if (args.length > i + 1) fail(ref, { arguments: [`expected at most ${i + 1} arguments, got ${args.length}`] });
  const given = (args[i] ?? {}) as Record<string, unknown>;
  const query: Record<string, unknown> = {};
  const options: Record<string, unknown> = {};
  for (const key of Object.keys(given)) {
    if (op.queryParams.includes(key)) query[key] = given[key];
    else if (OPTION_KEYS.has(key)) options[key] = given[key];
    else
      fail(ref, {
        [key]: [
          "is not a query parameter of this operation nor an option; pass undeclared query parameters in extraQuery",
        ],
      });
  }
  checkQuery(ref, query);
  const callOptions = options as CallOptions;
  if (callOptions.quotation !== undefined && body !== undefined) {
    body = checkQuotation(callOptions.quotation, body as Record<string, unknown>, ref);
  }
  checkBody(ref, body);
  return { path: fillPath(op, values), query, body, options: callOptions };
}

// A list's data as a page, whatever form it arrives in: the USA bank list answers { accounts }, EDD lists may
// answer a bare array. Callers iterate `results` either way.
function normalizePage(data: unknown): unknown {
  const records = Array.isArray(data) ? data : (data as { accounts?: unknown } | null)?.accounts;
  if (!Array.isArray(records) || (!Array.isArray(data) && "results" in (data as object))) return data;
  return { count: records.length, next: null, previous: null, results: records };
}

/** The runners made so far, by "group.name": initiate's history lookup and the wait helpers call them. */
type Runners = Record<string, Runner>;

/**
 * The list an operation searches by client_reference_id for what an earlier attempt made: a guarded operation's
 * (initiate's) history, a safe-by-reference operation's (createCustomer's) own list; the document publishes no
 * lookup by reference for either, so the list is paged through.
 */
function referenceListOf(op: OperationInfo, runners: Runners): Runner | undefined {
  if (op.idempotency === "guarded") return runners[`${op.group}.listHistory`];
  return op.idempotency === "safe-by-reference" ? runners[`${op.group}.list`] : undefined;
}

/**
 * The runner of one operation: arguments checked, sent through `send`, a list's data turned into a page. Guarded
 * operations (initiate) look the order up in the history, by client_reference_id, before any repeat; safe-by-reference
 * ones (createCustomer) look the record up when a repeat meets "reference already exists".
 */
function operationRunner(
  op: OperationInfo,
  shape: "page" | undefined,
  send: Send,
  runners: Runners,
  historyLookupPages: number,
): Runner {
  const ref: OperationRef = { operationId: op.operationId, method: op.method, path: op.path };
  const check = repeatsFreely(op.idempotency) ? undefined : ambiguityCheck(op.operationId);
  // async: an argument error rejects the call's promise, as a failed request does.
  return async (args, deadlineAt) => {
    const { path, query, body, options } = parseArgs(op, ref, args);
    const list = referenceListOf(op, runners);
    const history = op.idempotency === "guarded" ? list : undefined;
    const reference = (body as { client_reference_id?: unknown } | undefined)?.client_reference_id;
    const hasReference = typeof reference === "string" && reference !== "";
    // initiate: a retry could create the order twice, so each retry first looks for it in the history.
    let found: Sent | undefined;
    const lookup =
      list && hasReference
        ? async (at: number) => {
            found = await lookupByReference(list, reference, options, at, historyLookupPages);
            return found;
          }
        : undefined;
    // An object literal, not a spread of parseArgs' result: the spread cost about 3 µs per call.
    const sent = await send({
      operation: ref,
      path,
      query,
      body,
      options,
      deadlineAt,
      lookup,
      noRetry: history && !hasReference ? NO_REFERENCE : undefined,
      idempotency: op.idempotency,
      check,
    });
    if (shape === "page") return { data: normalizePage(sent.data), response: sent.response };
    if (history === undefined) return sent;
    return resolveInitiatedOrder({
      operation: ref,
      sent,
      fromHistory: sent === found,
      reference: hasReference ? reference : undefined,
      lookup: lookup && (() => lookup(deadlineAt ?? Infinity)),
      historyLookupPages,
    });
  };
}

/** A list method's `.all`: every page, each a call of the method itself. */
function allPages(op: OperationInfo, run: Runner) {
  return (...args: unknown[]) => {
    const n = op.pathParams.length;
    const given = (args[n] ?? {}) as CallOptions & Record<string, unknown>;
    const start: Record<string, unknown> = {};
    for (const key of op.queryParams) if (given[key] !== undefined) start[key] = given[key];
    // What the next URL carries that the spec does not declare goes in extraQuery.
    return paginate(async (query) => {
      const page: Record<string, unknown> = { ...given, extraQuery: { ...given.extraQuery } };
      for (const key in query)
        (op.queryParams.includes(key) ? page : (page.extraQuery as Record<string, unknown>))[key] = query[key];
      return (await run([...args.slice(0, n), page])).data;
    }, start);
  };
}

/**
 * Scans a list (initiate's history, the customer list), page after page (at most historyLookupPages of 100), for the
 * record with this client_reference_id.
 */
async function lookupByReference(
  history: Runner,
  reference: unknown,
  options: CallOptions,
  deadlineAt: number,
  historyLookupPages: number,
): Promise<Sent | undefined> {
  const { signal, timeoutMs, headers } = options;
  let pages = 0;
  let response: Response | undefined;
  const orders = paginate<Record<string, unknown>>(
    async (query) => {
      if (++pages > historyLookupPages) return undefined;
      const sent = await history([{ page: query.page, per_page: 100, signal, timeoutMs, headers }], deadlineAt);
      response = sent.response;
      return sent.data;
    },
    { page: 1, per_page: 100 },
  );
  for await (const order of orders)
    if (order?.client_reference_id === reference) return { data: order, response: response! };
  return undefined;
}

/** The helpers on the generated groups: waitForKyc, the banks' and orders' waitFor, the history aliases. */
function addHelpers(groups: Record<string, Record<string, unknown>>, runners: Runners): void {
  const poll = (
    what: string,
    name: string,
    args: string[],
    field: string,
    final: readonly string[],
    options: WaitOptions = {},
  ) =>
    pollUntil(
      what,
      async (deadlineAt) => (await runners[name]!([...args, { signal: options.signal }], deadlineAt)).data,
      statusIn(field, final),
      options,
    );
  Object.assign((groups.customers ??= {}), {
    waitForKyc: (id: string, o?: WaitOptions) =>
      poll(`customer ${id}`, "customers.get", [id], "status", FINAL_VERIFICATION, o),
  });
  Object.assign((groups.banks ??= {}), {
    waitFor: (customerId: string, bankId: string, o?: WaitOptions) =>
      poll(`bank account ${bankId}`, "banks.get", [customerId, bankId], "bank_account_status", FINAL_VERIFICATION, o),
  });
  for (const group of ["payins", "payouts"]) {
    Object.assign((groups[group] ??= {}), {
      waitFor: (id: string, o?: WaitOptions) =>
        poll(`${group.slice(0, -1)} ${id}`, `${group}.get`, [id], "status", FINAL_ORDER, o),
      history: groups[group]!.listHistory,
    });
  }
}

/**
 * The resource groups: the generated groups, one explicit method per operation, each sent through `send`,
 * plus the helpers (waitFor, waitForKyc, history aliases).
 */
export function createResources(send: Send, historyLookupPages: number): Resources {
  const operations = new Map(listOperations().map((op) => [op.operationId, op]));
  const runners: Runners = {};
  // Called by the generated groups once per operation, before any call is made.
  const build = (operationId: string, shape?: "page", sandboxQuery?: readonly string[]) => {
    const declared = operations.get(operationId);
    if (declared === undefined) throw new Error(`@exchange-kit/client: no route for ${operationId}: run pnpm generate`);
    // The sandbox's own query parameters (x-sandbox-parameters) are sent like declared ones.
    const op = sandboxQuery ? { ...declared, queryParams: [...declared.queryParams, ...sandboxQuery] } : declared;
    const run = operationRunner(op, shape, send, runners, historyLookupPages);
    runners[`${op.group}.${op.name}`] = run;
    const method = Object.assign(
      unwrapData((...args: unknown[]) => run(args)),
      { operationId: op.operationId },
    );
    if (op.queryParams.includes("page")) Object.assign(method, { all: allPages(op, run) });
    return method;
  };
  const groups = generatedResources(build as MethodFactory) as unknown as Record<string, Record<string, unknown>>;
  addHelpers(groups, runners);
  return groups as unknown as Resources;
}
