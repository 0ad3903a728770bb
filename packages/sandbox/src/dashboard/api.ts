// The dashboard's JSON calls, all scoped to the session's organization. Reads go straight to the store and the
// request log; actions run the control API's own handlers (the same checks, errors and events as a signed
// control call) in one transaction each.
import * as control from "../control/control-api.js";
import type { SandboxDomain } from "../domain/sandbox-domain.js";
import { ApiError, badRequest } from "../domain/api-error.js";
import type { HandlerResult, JsonObject, Organization, RequestContext } from "../api/route.js";
import { isRecordKind, RECORD_KINDS, type RecordKind, type RecordKindName } from "./record-kinds.js";
import { listEvents, listRecords, type PageRequest, recordDetail, searchAllKinds } from "./records.js";
import type { DashboardRequestLog } from "./request-log-port.js";
import { transitionsMeta } from "./transitions-meta.js";

export interface ApiCall {
  method: string;
  /** The path after /_dashboard/api/, split on "/". */
  segments: string[];
  query: URLSearchParams;
  body: JsonObject;
  org: Organization;
}

export interface ApiParts {
  domain: SandboxDomain;
  requestLog: DashboardRequestLog;
}

type Route = (call: ApiCall, parts: ApiParts) => unknown;
// A route answers a value or a promise of one; answerCall waits for it.

function whole(query: URLSearchParams, name: string, fallback: number, max: number): number {
  const text = query.get(name);
  if (text === null || text === "") return fallback;
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1 || Number(text) > max)
    throw badRequest("INPUT_MALFORMED", `Invalid ${name}`, name, `A whole number from 1 to ${max}.`);
  return Number(text);
}

/** page (1..1,000,000, default 1) and per_page (1..100, default 25). */
export function pageOf(query: URLSearchParams): PageRequest {
  return { page: whole(query, "page", 1, 1_000_000), perPage: whole(query, "per_page", 25, 100) };
}

function kindOf(name: string | undefined): RecordKindName {
  if (name !== undefined && isRecordKind(name)) return name;
  throw badRequest(
    "INPUT_MALFORMED",
    "Unknown kind of record",
    "kind",
    `One of ${Object.keys(RECORD_KINDS).join(", ")}.`,
  );
}

const notFound = () => new ApiError(404, "NOT_FOUND", "No such record in your organization");

/** A control API handler run for the session's organization, in one transaction, answered in the envelope. */
async function runControl(
  call: ApiCall,
  parts: ApiParts,
  handler: (ctx: never) => HandlerResult | Promise<HandlerResult>,
  params = {},
) {
  const ctx: RequestContext<SandboxDomain> = {
    org: call.org,
    params,
    query: call.query,
    body: call.body,
    origin: "",
    path: "",
    domain: parts.domain,
  };
  const result = await parts.domain.store.transaction(async () =>
    (handler as (c: typeof ctx) => HandlerResult | Promise<HandlerResult>)(ctx),
  );
  return { status: true, message: result.message, data: result.data };
}

function session(call: ApiCall) {
  return {
    organization: { id: call.org.id, name: call.org.name },
    kinds: Object.entries(RECORD_KINDS).map(([name, kind]) => ({ name, label: kind.label })),
    transitions: transitionsMeta(),
  };
}

async function record(call: ApiCall, parts: ApiParts) {
  const [, kind, id] = call.segments;
  const found = await recordDetail(parts.domain, call.org.id, kindOf(kind), id ?? "");
  if (!found) throw notFound();
  return found;
}

async function transition(call: ApiCall, parts: ApiParts) {
  const [, kindName, id] = call.segments;
  const kind: RecordKind = RECORD_KINDS[kindOf(kindName)];
  if (!kind.type) throw badRequest("INPUT_MALFORMED", "This kind of record has no status to move", "kind");
  return await runControl(call, parts, control.transition(kind.type), { id });
}

/** A page of one kind's records, or with kind "all" the records of every kind a search names (q required). */
async function records(call: ApiCall, parts: ApiParts) {
  const q = call.query.get("q")?.trim() || undefined;
  const kind = call.query.get("kind") ?? "customers";
  if (kind !== "all") return await listRecords(parts.domain, call.org.id, kindOf(kind), pageOf(call.query), q);
  if (!q) throw badRequest("REQ_FIELD_MISSING", "A search of every kind needs q", "q", "An ID or client_reference_id.");
  return await searchAllKinds(parts.domain, call.org.id, q);
}

const GET: Record<string, Route> = {
  session: (call) => session(call),
  records: async (call, parts) => (call.segments.length === 1 ? await records(call, parts) : await record(call, parts)),
  events: (call, parts) => listEvents(parts.domain, call.org.id, pageOf(call.query)),
  requests: (call, parts) => parts.requestLog.query(call.org.id, call.query),
  controls: async (call, parts) => ({
    clock: (await runControl(call, parts, control.getClock)).data,
    settings: (await runControl(call, parts, control.getSettings)).data,
  }),
};

const POST: Record<string, Route> = {
  records: transition,
  events: async (call, parts) =>
    await runControl(call, parts, control.redeliverEvent, { event_id: call.segments[1] ?? "" }),
  clock: (call, parts) => runControl(call, parts, control.advanceClock),
  settings: (call, parts) => runControl(call, parts, control.updateSettings),
};

/** Which route a call takes: its method and first segment, and for actions the exact shape of the path. */
function routeOf(call: ApiCall): Route | undefined {
  const [first = "", ...rest] = call.segments;
  if (call.method === "GET") return Object.hasOwn(GET, first) && rest.length <= 2 ? GET[first] : undefined;
  if (call.method !== "POST" || !Object.hasOwn(POST, first)) return undefined;
  const shapes: Record<string, string> = {
    records: "3 transition",
    events: "2 redeliver",
    clock: "1 advance",
    settings: "0 ",
  };
  const [count, last] = shapes[first]!.split(" ");
  return rest.length === Number(count) && (rest[rest.length - 1] ?? "") === last ? POST[first] : undefined;
}

/** Answers a call: the route's value, or throws the ApiError that answers it (404 for no such call). */
export async function answerCall(call: ApiCall, parts: ApiParts): Promise<unknown> {
  const route = routeOf(call);
  if (!route) throw new ApiError(404, "NOT_FOUND", "No such dashboard call");
  return await route(call, parts);
}
