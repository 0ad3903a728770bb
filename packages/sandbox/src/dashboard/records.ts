// What the dashboard reads of an organization: a page of records of one kind (or the records an ID or
// client_reference_id names), one record with its events, and a page of the event log. Always the caller's
// organization: a record of another one is "not found", as through the API.
import { createdAtPage } from "../api/paging.js";
import { eventView } from "../control/control-api.js";
import type { SandboxDomain } from "../domain/sandbox-domain.js";
import { RECORD_KINDS as REGISTRY } from "../record-kinds.js";
import { RECORD_KINDS, type RecordKind, type RecordKindName, recordName } from "./record-kinds.js";

export interface PageRequest {
  page: number;
  perPage: number;
}

interface Listed {
  id: string;
  org: string;
  created_at: string;
}

async function summary(name: RecordKindName, row: Listed, domain: SandboxDomain) {
  const kind: RecordKind = RECORD_KINDS[name];
  const members = row as unknown as Record<string, unknown>;
  return {
    kind: name,
    id: row.id,
    name: recordName(name, row),
    status: await kind.status(row, domain),
    client_reference_id: (members.client_reference_id as string | null | undefined) ?? null,
    customer_id: (members.customer_id as string | undefined) ?? null,
    created_at: row.created_at,
  };
}

/** Each row's list entry, in order. */
async function summaries(name: RecordKindName, rows: readonly Listed[], domain: SandboxDomain) {
  const listed: Array<Awaited<ReturnType<typeof summary>>> = [];
  for (const row of rows) listed.push(await summary(name, row, domain));
  return listed;
}

/** The organization's rows a search names: by ID, else by client_reference_id where the kind has one. */
async function search(kind: RecordKind, domain: SandboxDomain, org: string, q: string): Promise<Listed[]> {
  const table = kind.table(domain.store);
  const byId = (await table.owned(org, q.toLowerCase())).row ?? (await table.owned(org, q)).row;
  if (byId) return [byId];
  return kind.clientRef ? await table.where("org = ? AND client_ref = ?", [org, q], "seq DESC", 100) : [];
}

/** One page, newest first: on the (org, created_at) index where the kind has it, by insertion order otherwise. */
async function page(
  kind: RecordKind,
  domain: SandboxDomain,
  org: string,
  at: PageRequest,
): Promise<{ rows: Listed[]; count: number }> {
  const table = kind.table(domain.store);
  const offset = (at.page - 1) * at.perPage;
  if (kind.indexed) {
    // The API's own paging: from the nearer end of the index, so the last page costs what the first does.
    const count = await table.countOf(org);
    return { rows: await createdAtPage(table, "org = ?", [org], true, { count, limit: at.perPage, offset }), count };
  }
  return {
    rows: await table.where("org = ?", [org], "seq DESC", at.perPage, offset),
    count: await table.count("org = ?", org),
  };
}

/**
 * A page of the organization's records of a kind (or, with `q`, the records it names), as list rows.
 *
 * @example
 * listRecords(domain, org, "customers", { page: 1, perPage: 25 }); // { count: 100000, results: [25 rows] }
 */
export async function listRecords(
  domain: SandboxDomain,
  org: string,
  name: RecordKindName,
  at: PageRequest,
  q?: string,
) {
  const kind: RecordKind = RECORD_KINDS[name];
  const found = q ? { rows: await search(kind, domain, org, q), count: -1 } : await page(kind, domain, org, at);
  const count = found.count === -1 ? found.rows.length : found.count;
  return {
    kind: name,
    count,
    page: q ? 1 : at.page,
    per_page: at.perPage,
    results: await summaries(name, found.rows, domain),
  };
}

/** The most rows a search across every kind answers. */
const SEARCH_ALL_LIMIT = 100;

/**
 * The organization's records of every kind that an ID or client_reference_id names, as list rows with their kind
 * (an ID names one record; a reference may name a customer and the orders that carry it).
 *
 * @example
 * searchAllKinds(domain, org, "cust-42"); // { kind: "all", count: 2, results: [{ kind: "customers", ... }, { kind: "payins", ... }] }
 */
export async function searchAllKinds(domain: SandboxDomain, org: string, q: string) {
  const results: Array<Awaited<ReturnType<typeof summary>>> = [];
  for (const name of Object.keys(RECORD_KINDS) as RecordKindName[])
    results.push(...(await summaries(name, await search(RECORD_KINDS[name], domain, org, q), domain)));
  results.splice(SEARCH_ALL_LIMIT);
  return { kind: "all", count: results.length, page: 1, per_page: SEARCH_ALL_LIMIT, results };
}

/** One record of the organization as the API shows it, its status, its events, and how it moves; undefined if none. */
export async function recordDetail(domain: SandboxDomain, org: string, name: RecordKindName, id: string) {
  const kind: RecordKind = RECORD_KINDS[name];
  const table = kind.table(domain.store);
  const row = (await table.owned(org, id.toLowerCase())).row ?? (await table.owned(org, id)).row;
  if (!row) return undefined;
  return {
    kind: name,
    id: row.id,
    status: await kind.status(row, domain),
    record: kind.view(row),
    // The kind the control API moves it as (the key of the session's `transitions`), or null.
    transition: kind.type ? REGISTRY[kind.type].collection : null,
    events: (await domain.events.list(org, { id: row.id })).map(eventView),
  };
}

/** A page of the organization's events, newest first, with every delivery and attempt. */
export async function listEvents(domain: SandboxDomain, org: string, at: PageRequest) {
  const events = domain.store.events;
  const rows = await events.page("org = ?", [org], "created_at DESC, seq DESC", at.perPage, (at.page - 1) * at.perPage);
  return {
    count: await events.count("org = ?", org),
    page: at.page,
    per_page: at.perPage,
    webhook_url: (await domain.store.orgSettings.get(org))?.webhook_url ?? null,
    results: rows.map(eventView),
  };
}
