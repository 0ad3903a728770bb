// Customers: create (idempotent on client_reference_id), list, fetch; all scoped to the caller's organization.
import { randomUUID } from "node:crypto";
import { type ApiError, badRequest, missingFields } from "../domain/api-error.js";
import type { HandlerResult } from "./route.js";
import { COUNTRIES, type CountryInfo, ISO_ALPHA3 } from "../domain/catalog.js";
import type { CustomerRow } from "../records/rows.js";
import { dateRange } from "./list-filters.js";
import { findCustomer } from "./lookups.js";
import { orderedPage, type Condition } from "./paging.js";
import { text } from "./body-members.js";
import type { Ctx, OperationContext } from "./validated-request.js";
import { customerView } from "./views.js";

function countryError(code: string, field: string): never {
  if (!ISO_ALPHA3.has(code))
    throw badRequest(
      "REQ_INVALID_COUNTRY",
      "Invalid country code",
      field,
      "Invalid country code: use ISO 3166-1 alpha-3, e.g. IND.",
    );
  throw badRequest(
    "REQ_INVALID_COUNTRY",
    "Invalid country code",
    field,
    `Country ${code} is not enabled for this organization.`,
  );
}

/**
 * full_name, or first_name and last_name joined. The schema asks for one or the other, but a blank member
 * (spaces only) passes its minLength: blank counts as missing here, as in every sandbox check, so no customer
 * is stored with a name of spaces or "undefined".
 */
function customerName(body: OperationContext<"createCustomer">["body"]): string {
  const full = text(body, "full_name");
  if (full !== undefined) return full;
  const first = text(body, "first_name");
  const last = text(body, "last_name");
  if (first !== undefined && last !== undefined) return `${first} ${last}`;
  if (body.full_name !== undefined) throw missingFields(["full_name"]);
  throw missingFields([...(first === undefined ? ["first_name"] : []), ...(last === undefined ? ["last_name"] : [])]);
}

/**
 * Why `residence_country` (a sandbox-only member that reaches the document's two residence codes) refuses the
 * customer, or undefined when it is absent or the country of onboarding.
 */
export function residenceProblem(residence: unknown, country: string): ApiError | undefined {
  if (residence === undefined) return undefined;
  if (typeof residence !== "string" || !ISO_ALPHA3.has(residence))
    return badRequest("REQ_INVALID_RESIDENCE_COUNTRY", "Invalid residence country code", "residence_country");
  if (residence !== country)
    return badRequest(
      "REQ_NON_RESIDENT_UNSUPPORTED",
      "Customer must live in the country of onboarding",
      "residence_country",
    );
  return undefined;
}

/** The phone as stored and answered: the national number checked by the country's rule, with its dial code. */
function internationalPhone(national: string | undefined, country: string, info: CountryInfo): string | undefined {
  if (national === undefined) return undefined;
  if (!info.phone.test(national)) {
    throw badRequest(
      "INPUT_MALFORMED",
      "Invalid phone number",
      "phone",
      `Enter a valid national mobile number for ${country}, without the country code.`,
    );
  }
  return `${info.dialCode}${national}`;
}

/** USR_DUPLICATE_CONTACT when another customer of the organization has the email or the phone. */
async function checkContactsUnused(ctx: Ctx, email: string | undefined, phone: string | undefined): Promise<void> {
  // Neither given: nothing any customer could hold (NULL matches no row), so nothing to read.
  if (email === undefined && phone === undefined) return;
  const org = ctx.org.id;
  // The first customer holding either, as the scan in creation order used to find it.
  const holder = await ctx.domain.store.customers.first(
    "seq IN (SELECT seq FROM customer WHERE org = ? AND email = ? UNION ALL SELECT seq FROM customer WHERE org = ? AND phone = ?)",
    org,
    email ?? null,
    org,
    phone ?? null,
  );
  if (holder && email && holder.email === email)
    throw badRequest("USR_DUPLICATE_CONTACT", "Email already in use", "email");
  if (holder && phone && holder.phone === phone)
    throw badRequest("USR_DUPLICATE_CONTACT", "Phone already in use", "phone");
}

export async function createCustomer(ctx: OperationContext<"createCustomer">): Promise<HandlerResult> {
  const { body, domain, org } = ctx;
  const country = body.alpha_3_country_code;
  const info = COUNTRIES[country];
  if (!info) countryError(country, "alpha_3_country_code");
  const residence = residenceProblem(body.residence_country, country);
  if (residence) throw residence;
  const fullName = customerName(body);

  const reference = body.client_reference_id;
  const existing = await domain.store.customers.first("org = ? AND client_ref = ?", org.id, reference);
  if (existing) return { message: "Customer already exists", data: customerView(existing) };

  const email = text(body, "email")?.toLowerCase();
  const phone = internationalPhone(text(body, "phone"), country, info);
  await checkContactsUnused(ctx, email, phone);
  const now = (await domain.clock(org.id)).iso();
  const customer: CustomerRow = {
    id: randomUUID(),
    org: org.id,
    client_reference_id: reference,
    full_name: fullName,
    email,
    phone,
    country,
    type: "INDIVIDUAL",
    status: "UNVERIFIED",
    failure_reason: null,
    dob: text(body, "dob"),
    created_at: now,
    updated_at: now,
  };
  await domain.store.customers.put(customer);
  return { message: "Customer created successfully", data: customerView(customer) };
}

export async function getCustomer(ctx: OperationContext<"getCustomer">): Promise<HandlerResult> {
  const customer = await findCustomer(ctx, ctx.params.customer_id);
  return { message: "Customer fetched successfully", data: customerView(customer) };
}

/** Filters: start_date / end_date (YYYY-MM-DD, either alone is fine here), status; ordering as on histories. */
export async function listCustomers(ctx: OperationContext<"listCustomers">): Promise<HandlerResult> {
  const condition: Condition = { org: ctx.org.id, where: [], params: [] };
  dateRange(ctx, { together: false, formatCode: "INPUT_INVALID_DATE_FORMAT" }, condition);
  const status = ctx.query.get("status");
  if (status !== null) {
    condition.where.push("status = ?");
    condition.params.push(status);
  }
  const page = await orderedPage(ctx, ctx.domain.store.customers, condition);
  return { message: "Customers fetched successfully", data: { ...page, results: page.results.map(customerView) } };
}
