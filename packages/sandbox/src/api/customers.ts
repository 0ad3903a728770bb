// Customers: create (idempotent on client_reference_id), list, fetch; all scoped to the caller's organization.
import { randomUUID } from "node:crypto";
import { badRequest } from "../http/api-error.js";
import type { HandlerResult } from "../http/server.js";
import { COUNTRIES, ISO_ALPHA3 } from "../domain/catalog.js";
import type { CustomerRow } from "../store/records.js";
import { dateRange, findCustomer, paginate, sortRows, text, type Ctx } from "./common.js";
import { customerView } from "./views.js";

function countryError(code: string, field: string): never {
  if (!ISO_ALPHA3.has(code)) throw badRequest("REQ_INVALID_COUNTRY", "Invalid country code", field, "Invalid country code: use ISO 3166-1 alpha-3, e.g. IND.");
  throw badRequest("REQ_INVALID_COUNTRY", "Invalid country code", field, `Country ${code} is not enabled for this organization.`);
}

export function createCustomer(ctx: Ctx): HandlerResult {
  const { body, domain, org } = ctx;
  const country = String(body.alpha_3_country_code);
  const info = COUNTRIES[country];
  if (!info) countryError(country, "alpha_3_country_code");

  // residence_country is a sandbox-only member that reaches the two residence codes of the document.
  const residence = body.residence_country;
  if (residence !== undefined) {
    if (typeof residence !== "string" || !ISO_ALPHA3.has(residence)) {
      throw badRequest("REQ_INVALID_RESIDENCE_COUNTRY", "Invalid residence country code", "residence_country");
    }
    if (residence !== country) {
      throw badRequest("REQ_NON_RESIDENT_UNSUPPORTED", "Customer must live in the country of onboarding", "residence_country");
    }
  }

  const reference = String(body.client_reference_id);
  const existing = domain.store.customers.byIndex("clientRef", `${org.id}|${reference}`);
  if (existing) return { message: "Customer already exists", data: customerView(existing) };

  const email = text(body, "email")?.toLowerCase();
  let phone: string | undefined;
  const nationalPhone = text(body, "phone");
  if (nationalPhone !== undefined) {
    if (!info.phone.test(nationalPhone)) {
      throw badRequest("INPUT_MALFORMED", "Invalid phone number", "phone", `Enter a valid national mobile number for ${country}, without the country code.`);
    }
    phone = `${info.dialCode}${nationalPhone}`;
  }
  for (const other of domain.store.customers.all()) {
    if (other.org !== org.id) continue;
    if (email && other.email === email) throw badRequest("USR_DUPLICATE_CONTACT", "Email already in use", "email");
    if (phone && other.phone === phone) throw badRequest("USR_DUPLICATE_CONTACT", "Phone already in use", "phone");
  }

  const now = domain.clock.iso();
  const fullName = text(body, "full_name") ?? `${String(body.first_name)} ${String(body.last_name)}`;
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
  domain.store.customers.put(customer);
  return { message: "Customer created successfully", data: customerView(customer) };
}

export function getCustomer(ctx: Ctx): HandlerResult {
  const customer = findCustomer(ctx, ctx.params.customer_id);
  return { message: "Customer fetched successfully", data: customerView(customer) };
}

/** Filters: start_date / end_date (YYYY-MM-DD, either alone is fine here), status; ordering as on histories. */
export function listCustomers(ctx: Ctx): HandlerResult {
  const inRange = dateRange(ctx, { together: false, formatCode: "INPUT_INVALID_DATE_FORMAT" });
  const status = ctx.query.get("status");
  const rows = ctx.domain.store.customers.filter(
    (c) => c.org === ctx.org.id && inRange(c.created_at) && (status === null || c.status === status),
  );
  const page = paginate(ctx, sortRows(ctx, rows));
  return { message: "Customers fetched successfully", data: { ...page, results: page.results.map(customerView) } };
}
