// What a handler receives once the server has validated the request against the operation: the body and the
// path and query values typed from the generated request types of @exchange-kit/types, adjusted where the
// sandbox's validation differs from the published spec (x-sandbox-required members, combinators the handler
// checks itself). The route table (routes.ts) is typed with these, so a handler cannot read a member its
// operation does not declare, nor take the wrong operation's request.
import type { OperationId, OperationPathParams, OperationQueryParams, OperationRequestBody } from "@exchange-kit/types";
import type { SandboxDomain } from "../domain/sandbox-domain.js";
import type { HandlerResult, JsonObject, RequestContext, RequestValues } from "./route.js";

/**
 * The members each operation's body schema lists in `x-sandbox-required`, which the sandbox folds into
 * `required` when it loads the spec (spec/sandbox-required.ts); test/validated-request.test.ts keeps this list
 * equal to the spec's.
 */
export const SANDBOX_REQUIRED = {
  createCustomer: ["alpha_3_country_code"],
  addKycData: ["full_name", "dob", "document_type", "document_details", "selfie_url"],
  updateKycTaxInfo: ["customer_id", "tax_number"],
  updateKycDocumentInfo: ["customer_id", "document_type", "document_details"],
  addPayoutSenderKycData: ["document_type"],
  createBankAccount: ["customer_id", "bank_account_type", "identifiers"],
  generateBankLink: ["customer_id"],
  createPayinQuotation: ["customer_id", "bank_id", "asset", "fiat", "network", "payment_method", "wallet_address"],
  initiatePayin: ["quotation_id", "client_reference_id", "transaction_reference_id"],
  savePayinEdd: ["customer_id"],
  createPayoutQuotation: ["asset", "fiat", "customer_id", "bank_id", "network", "payment_method"],
  createRemittancePayoutQuotation: ["asset", "fiat", "customer_id", "bank_id", "network", "payment_method"],
  initiatePayout: ["quotation_id"],
  savePayoutEdd: ["customer_id"],
} as const satisfies { [Id in OperationId]?: ReadonlyArray<keyof OperationRequestBody<Id> & string> };

/**
 * The body combinator (anyOf/oneOf) of each operation whose rule the handler checks itself, with the document's
 * own codes instead of the schema's generic answer; the server does not validate it.
 */
export const HANDLER_CHECKED_COMBINATORS = {
  // AADHAAR: both images or aadhaar_json → KYC_INVALID_AADHAAR_INPUT; other types: images are required.
  addKycData: "#/anyOf",
  // Exactly one amount: "not both" is INPUT_MALFORMED, "neither" REQ_FIELD_MISSING naming both.
  createPayinQuotation: "#/oneOf",
  createPayoutQuotation: "#/oneOf",
  createRemittancePayoutQuotation: "#/oneOf",
} as const satisfies { [Id in OperationId]?: string };

/**
 * Members a handler reads that the spec does not publish. The spec's schemas leave other members open, so such a
 * member may arrive, unvalidated: the handler checks it.
 */
interface SandboxMembers {
  /** Reaches the two residence codes of the document (REQ_INVALID_RESIDENCE_COUNTRY, REQ_NON_RESIDENT_UNSUPPORTED). */
  createCustomer: { residence_country?: unknown };
  /** The beneficiary's name when the identifiers carry no account_holder_name. */
  createBankAccountForPayout: { beneficiary_name?: unknown };
}

/** Nothing, for an operation without a body or parameters of a kind. */
type None = Record<never, never>;
type OrNone<T> = [T] extends [never] ? None : T;

/** Each alternative's declared members, without the index signature an open body (`additionalProperties`) adds. */
type Declared<B> = B extends unknown
  ? { [K in keyof B as string extends K ? never : number extends K ? never : K]: B[K] }
  : never;

/**
 * One object type with every member of the alternatives: what is known of a body whose combinator is not checked.
 * An open body stays open (its index signature would otherwise swallow the declared members).
 */
type Members<B> = Pick<Declared<B>, keyof Declared<B>> & (string extends keyof B ? Record<string, unknown> : None);

type Checked<Id extends OperationId> = Id extends keyof typeof HANDLER_CHECKED_COMBINATORS
  ? Members<OperationRequestBody<Id>>
  : OperationRequestBody<Id>;

type SandboxRequired<Id extends OperationId> = Id extends keyof typeof SANDBOX_REQUIRED
  ? (typeof SANDBOX_REQUIRED)[Id][number]
  : never;

type Extra<Id extends OperationId> = Id extends keyof SandboxMembers ? SandboxMembers[Id] : None;

/** The body as the server's validation leaves it: the generated request type, x-sandbox-required members present. */
export type ValidatedBody<Id extends OperationId> = [OperationRequestBody<Id>] extends [never]
  ? None
  : Checked<Id> & Required<Pick<Checked<Id>, SandboxRequired<Id> & keyof Checked<Id>>> & Extra<Id>;

/**
 * The declared path and query parameters, validated and coerced (`page` is a number); other query values the
 * request carries are there too, as strings.
 */
export type ValidatedParams<Id extends OperationId> = OrNone<OperationPathParams<Id>> &
  OrNone<OperationQueryParams<Id>> &
  RequestValues;

/** What the helpers shared by all handlers read: the organization, domain, path and query; never the body. */
export type Ctx = RequestContext<SandboxDomain, unknown, RequestValues>;

export type OperationContext<Id extends OperationId> = RequestContext<
  SandboxDomain,
  ValidatedBody<Id>,
  ValidatedParams<Id>
>;

export type OperationHandler<Id extends OperationId> = (
  ctx: OperationContext<Id>,
) => HandlerResult | Promise<HandlerResult>;

/** The names of a path template's parameters: `/events/{event_id}/redeliver` → "event_id". */
export type PathParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamNames<Rest>
  : never;

/**
 * The request of a sandbox-only route (no operation in the spec, so nothing validated it): the path's values as
 * strings and the body as a JSON object whose members the handler checks.
 */
export type SandboxContext<Params extends string = never> = RequestContext<
  SandboxDomain,
  JsonObject,
  Readonly<Record<Params, string>> & RequestValues
>;

export type SandboxHandler<Params extends string = never> = (
  ctx: SandboxContext<Params>,
) => HandlerResult | Promise<HandlerResult>;
