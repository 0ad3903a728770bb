// The types of a resource method: for every operationId in the spec, the positional arguments and the result,
// derived from the generated types and the operation index. The generated resource groups
// (src/generated/resources/) type each method with them, so nothing here imports those groups (the client's
// whole set of groups, with the helpers, is resource-groups.ts).
import type { OperationIndex, operations } from "./spec.js";
import type { RequestOptions } from "./transport-types.js";

/** Every operationId of the spec. */
export type OperationId = keyof OperationIndex & keyof operations & string;

type Op<Id extends OperationId> = operations[Id];

type PathParamsOf<Id extends OperationId> =
  Op<Id> extends { parameters: { path?: infer P } } ? NonNullable<P> : Record<string, never>;

type PathTuple<Names extends readonly string[], P> = {
  -readonly [K in keyof Names]: Names[K] extends keyof P ? P[Names[K]] : string;
};

/** The path parameters of an operation as a tuple, in path order. */
export type PathArgsOf<Id extends OperationId> = PathTuple<OperationIndex[Id]["pathParams"], PathParamsOf<Id>>;

type SpecBodyOf<Id extends OperationId> =
  Op<Id> extends {
    requestBody?: { content: { "application/json": infer B } };
  }
    ? B
    : never;

/**
 * Bodies with alternatives (the spec's oneOf) of which each requires its own members, and the member TypeScript
 * should name when a body sends none of them: the one the document states as the rule. For createCustomer,
 * "full_name: required unless both first_name and last_name are sent".
 */
interface MissingMemberNamed {
  createCustomer: "full_name";
}

type Flat<T> = { [K in keyof T]: T[K] };

/**
 * The same alternatives, the one requiring `K` listed last. TypeScript measures a body that matches no alternative
 * against the last one, so its complaint becomes "Property 'full_name' is missing" rather than naming the members
 * of the other alternative (first_name, last_name).
 */
type RequiringLast<B, K extends string> =
  | Flat<Exclude<B, { [P in K]: unknown }>>
  | Flat<Extract<B, { [P in K]: unknown }>>;

/** The JSON request body of an operation. */
export type BodyOf<Id extends OperationId> = Id extends keyof MissingMemberNamed
  ? RequiringLast<SpecBodyOf<Id>, MissingMemberNamed[Id]>
  : SpecBodyOf<Id>;

type BodyArgs<Id extends OperationId> = OperationIndex[Id]["hasBody"] extends true ? [body: BodyOf<Id>] : [];

/**
 * `T` with `undefined` accepted by every optional member, so that `{ page: maybePage }` compiles under
 * `exactOptionalPropertyTypes` (undefined members are left out of the request).
 */
export type AcceptUndefined<T> = {
  [K in keyof T as {} extends Pick<T, K> ? K : never]?: T[K] | undefined;
} & {
  [K in keyof T as {} extends Pick<T, K> ? never : K]: T[K];
};

/** The declared query parameters of an operation ({} when it has none); optional ones accept undefined. */
export type QueryOf<Id extends OperationId> =
  Op<Id> extends { parameters: { query?: infer Q } }
    ? [NonNullable<Q>] extends [never]
      ? {}
      : AcceptUndefined<NonNullable<Q>>
    : {};

/** A quotation, as far as initiate needs it: its id and expiry_time. */
export interface QuotationLike {
  readonly id?: string | undefined;
  readonly expiry_time?: string | null | undefined;
}

/** Options of initiate-style operations (a body with quotation_id): pass the quotation to check its expiry first. */
export interface QuotationOption {
  /**
   * The quotation being executed. Refused locally with QuotationExpiredError when past its expiry_time;
   * its id fills the body's quotation_id when that is missing.
   */
  quotation?: QuotationLike | undefined;
}

type QuotationOptionOf<Id extends OperationId> = [BodyOf<Id>] extends [never]
  ? {}
  : "quotation_id" extends keyof BodyOf<Id>
    ? QuotationOption
    : {};

/**
 * The last argument of a method: its query parameters plus the per-call options. `Q` holds the query parameters the
 * spec lists as the sandbox's only (`x-sandbox-parameters`: the document does not publish the service's names).
 */
export type OptionsOf<Id extends OperationId, Q = {}> = QueryOf<Id> & Q & RequestOptions & QuotationOptionOf<Id>;

/** The arguments of a method: path parameters, then the body (if any), then options. */
export type ArgsOf<Id extends OperationId, Q = {}> = [...PathArgsOf<Id>, ...BodyArgs<Id>, options?: OptionsOf<Id, Q>];

/** True for paged list operations (a `page` query parameter): they get `.all()`. */
export type IsList<Id extends OperationId> = "page" extends keyof QueryOf<Id> ? true : false;

type RawDataOf<Id extends OperationId> = Op<Id>["responses"] extends {
  200: { content: { "application/json": infer E } };
}
  ? E extends { data?: unknown }
    ? Exclude<E["data"], undefined>
    : unknown
  : unknown;

/** A page of a list operation. */
export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

// The record of a list's `data`, whatever form it takes: a page (`results`; the spec writes it as
// `PaginatedList & { results: Customer[] }`, whose `results[number]` is `unknown & Customer`, i.e. `Customer`),
// the USA bank list's `{ accounts }`, or a bare array (EDD lists). Distributes over unions.
type ItemOfData<D> = D extends readonly (infer T)[]
  ? T
  : D extends { accounts: readonly (infer T)[] }
    ? T
    : D extends { results: readonly unknown[] }
      ? D["results"][number]
      : never;

/** The record type a list operation returns, in a page. */
export type ItemOf<Id extends OperationId> = ItemOfData<RawDataOf<Id>>;

/**
 * The envelope's `data` of an operation, typed from the spec: what a method resolves to, except that list methods
 * resolve to `Page<ItemOf<Id>>` and the initiate methods to an `InitiatedOrder`.
 */
export type DataOf<Id extends OperationId> = RawDataOf<Id>;

/**
 * What `payins.initiate` and `payouts.initiate` resolve to: the new order's `id`, `status` (the order record's
 * statuses, from the spec) and `client_reference_id`, typed from the order record `O` of the group's history. The
 * document does not publish the initiate answer, so they are taken from the answer when it carries `id` and
 * `status`, and otherwise from the order found in the history by the body's `client_reference_id`;
 * `client_reference_id` is the body's when the answer leaves it out. `raw` is the answer's `data` as received (or
 * the history record, when the call found the order there after an uncertain failure). Fetch the whole order with
 * `get(order.id)`, or wait for its outcome with `waitFor(order.id)`.
 *
 * @example
 * const order = await client.payins.initiate({ client_reference_id: "payin-1", transaction_reference_id: utr }, { quotation });
 * const final = await client.payins.waitFor(order.id);
 */
export interface InitiatedOrder<O extends { id: string; status: string; client_reference_id: string | null }> {
  /** The new order's ID: pass it to `get` and `waitFor`. */
  readonly id: O["id"];
  /** The order's status, one of the spec's statuses of the order record. */
  readonly status: O["status"];
  /** The reference the body sent (null for a payout sent without one). */
  readonly client_reference_id: O["client_reference_id"];
  /** The answer's `data` as received (its shape is not published), or the history record found instead. */
  readonly raw: { readonly [key: string]: unknown };
}

/**
 * What a delete resolves to when a repeat found the record already gone after an attempt whose outcome is unknown
 * (its answer was lost: a timeout, a reset connection, a 5xx): that attempt deleted it, and the service answers
 * not-found to the repeat. There is no deleted record to return then. A not-found on the call's first attempt, or
 * after attempts that provably did not reach the service, is an error as before.
 *
 * @example
 * const result = await client.banks.delete(customerId, bankId);
 * if ("deletedByEarlierAttempt" in result) console.log(`deleted (${result.attempts} attempts)`);
 * else console.log(`deleted ${result.id}`);
 */
export interface DeletedByEarlierAttempt {
  /** Always true: tells this result from the deleted record a plain success resolves to. */
  readonly deletedByEarlierAttempt: true;
  /** The attempts the call made; the last one met the not-found answer. */
  readonly attempts: number;
}

/**
 * What a delete method (`x-idempotency: safe-delete`) resolves to: the deleted record the answer carries, or
 * DeletedByEarlierAttempt when the answer to the attempt that deleted it was lost.
 */
export type Deleted<Id extends OperationId> = DataOf<Id> | DeletedByEarlierAttempt;

/** A resource method: call it for `data`, `.withResponse()` for `{ data, response }` too. */
export interface ResourceMethod<Id extends OperationId, D = DataOf<Id>, Q = {}> {
  (...args: ArgsOf<Id, Q>): Promise<D>;
  /**
   * Same call, also returning the raw Response (status, headers; its body is already read).
   *
   * @example
   * const { data, response } = await client.customers.create.withResponse(body);
   */
  withResponse(...args: ArgsOf<Id, Q>): Promise<{ data: D; response: Response }>;
  /** The operationId this method calls. */
  readonly operationId: Id;
}

/**
 * A list method whose answer is not paged (EDD lists: an array, or a page; the document does not say which):
 * it resolves to a page all the same, so `results` is always there.
 */
export type PageMethod<Id extends OperationId, Q = {}> = ResourceMethod<Id, Page<ItemOf<Id>>, Q>;

/** A paged list method: resolves to a page of typed records; `.all()` iterates every record of every page. */
export interface ListMethod<Id extends OperationId, Q = {}> extends ResourceMethod<Id, Page<ItemOf<Id>>, Q> {
  /**
   * Every record, page after page, following `next`.
   *
   * @example
   * for await (const payin of client.payins.listHistory.all({ per_page: 50 })) console.log(payin.id);
   */
  all(...args: [...PathArgsOf<Id>, options?: OptionsOf<Id, Q>]): AsyncIterableIterator<ItemOf<Id>>;
}

/**
 * Builds the method of an operation; the generated resource groups (src/generated/resources/) call it per method,
 * with "page" for list operations, whose data is always turned into a page, and the names of the query parameters
 * the spec lists as the sandbox's (`x-sandbox-parameters`), accepted beside the declared ones. It returns `never`
 * to the generated code because each generated group's interface types its methods from `operations[...]`.
 */
export type MethodFactory = (operationId: OperationId, shape?: "page", sandboxQuery?: readonly string[]) => never;
