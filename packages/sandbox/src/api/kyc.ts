// KYC: configuration, submission, the three updates (at most 3 per customer), payout sender KYC and remitters.
// A submission answers PROCESSING; the outcome arrives later as a CUSTOMER event (see domain/magic.ts).
import { randomUUID } from "node:crypto";
import { ApiError, badRequest, missingFields, REQUIRED_MESSAGE } from "../domain/api-error.js";
import type { HandlerResult } from "./route.js";
import { ADDITIONAL_INFO, COUNTRIES } from "../domain/catalog.js";
import { kycOutcome, stringsIn } from "../domain/magic.js";
import type { CustomerRow, KycState, RemitterRow, SenderKycRow } from "../records/rows.js";
import { kycDocumentKey } from "../records/record-tables.js";
import { findCustomer } from "./lookups.js";
import { requireMembers, text } from "./body-members.js";
import type { Ctx, OperationContext, ValidatedBody } from "./validated-request.js";

export const KYC_UPDATE_LIMIT = 3;

function kycConfiguration(customer: CustomerRow) {
  const info = COUNTRIES[customer.country];
  return {
    supported_document_types: info?.documents ?? ["PASSPORT"],
    additional_info_required: {
      options: ADDITIONAL_INFO.options,
      rules: ADDITIONAL_INFO.rules,
      ...ADDITIONAL_INFO.fields,
    },
    is_tax_required: info?.taxRequired ?? false,
  };
}

export async function getKycConfiguration(ctx: OperationContext<"getKycConfiguration">): Promise<HandlerResult> {
  const customer = await findCustomer(ctx, ctx.params.customer_id);
  return { message: "KYC configuration fetched successfully", data: kycConfiguration(customer) };
}

function checkDocumentType(customer: CustomerRow, documentType: string): void {
  const supported = kycConfiguration(customer).supported_document_types;
  if (!supported.includes(documentType)) {
    throw badRequest(
      "KYC_INVALID_DOC_TYPE",
      "Document type not supported for the country",
      "document_type",
      `Use one of: ${supported.join(", ")}.`,
    );
  }
}

/** The members of a KYC submission that carry the document's images. */
type KycImages = Pick<
  ValidatedBody<"addKycData">,
  "document_front_image_url" | "document_back_image_url" | "document_details"
>;

/** Images are required for every document type except AADHAAR, which may send aadhaar_json instead. */
function checkImages(body: KycImages, documentType: string): void {
  const front = text(body, "document_front_image_url");
  const back = text(body, "document_back_image_url");
  if (documentType === "AADHAAR") {
    const aadhaarJson = body.document_details?.additional_data?.aadhaar_json;
    if (!(front && back) && (aadhaarJson === undefined || aadhaarJson === null || aadhaarJson === "")) {
      throw badRequest(
        "KYC_INVALID_AADHAAR_INPUT",
        "Send both images, or aadhaar_json in additional_data",
        "document_type",
      );
    }
    return;
  }
  const missing = [front ? undefined : "document_front_image_url", back ? undefined : "document_back_image_url"].filter(
    (f): f is string => f !== undefined,
  );
  if (missing.length > 0) throw missingFields(missing);
}

/**
 * additional_info: only the configured names, string values, the required ones present, at least min_required.
 * (One that is not an object never gets here: the schema answers it.)
 */
function checkAdditionalInfo(info: ValidatedBody<"addKycData">["additional_info"]): void {
  const fail = (errors: Record<string, string[]>) =>
    new ApiError(400, "INPUT_MALFORMED_ADDITIONAL_INFO", "Invalid additional_info", errors);
  if (info === undefined) throw fail({ additional_info: [REQUIRED_MESSAGE] });
  const errors: Record<string, string[]> = {};
  for (const [key, item] of Object.entries(info)) {
    if (!ADDITIONAL_INFO.options.includes(key)) errors[`additional_info.${key}`] = ["Unknown field."];
    else if (typeof item !== "string" || item.trim() === "")
      errors[`additional_info.${key}`] = ["Must be a non-empty string."];
  }
  for (const [key, field] of Object.entries(ADDITIONAL_INFO.fields)) {
    if (field.required && info[key] === undefined) errors[`additional_info.${key}`] = [REQUIRED_MESSAGE];
  }
  if (Object.keys(info).length < ADDITIONAL_INFO.rules.min_required) {
    errors.additional_info = [
      `Send at least ${ADDITIONAL_INFO.rules.min_required} of: ${ADDITIONAL_INFO.options.join(", ")}.`,
    ];
  }
  if (Object.keys(errors).length > 0) throw fail(errors);
}

/** KYC details (document number or tax number) already submitted by another customer of the organization. */
async function checkNotInUse(ctx: Ctx, customer: CustomerRow, data: Record<string, unknown>): Promise<void> {
  const documentNumber = (data.document_details as { document_number?: unknown } | undefined)?.document_number;
  const taxNumber = data.tax_number;
  const documentKey = kycDocumentKey(data);
  const taxKey = typeof taxNumber === "string" ? taxNumber.toUpperCase() : null;
  // The indexed columns find the candidates; the exact rule below decides, as it did over every customer.
  const candidates = await ctx.domain.store.customers.where(
    "seq IN (SELECT seq FROM customer WHERE org = ? AND kyc_document = ? UNION ALL SELECT seq FROM customer WHERE org = ? AND kyc_tax = ?)",
    [ctx.org.id, documentKey, ctx.org.id, taxKey],
  );
  for (const other of candidates) {
    if (other.id === customer.id || !other.kyc) continue;
    const theirs = other.kyc.data;
    const theirNumber = (theirs.document_details as { document_number?: unknown } | undefined)?.document_number;
    if (documentNumber !== undefined && theirs.document_type === data.document_type && theirNumber === documentNumber) {
      throw badRequest("KYC_IN_USE", "KYC already in use", "document_details");
    }
    if (
      typeof taxNumber === "string" &&
      typeof theirs.tax_number === "string" &&
      theirs.tax_number.toUpperCase() === taxNumber.toUpperCase()
    ) {
      throw badRequest("KYC_IN_USE", "KYC already in use", "tax_number");
    }
  }
}

/** Starts (or restarts) verification: KYC PROCESSING now, the outcome after the automatic-progress delay. */
async function startVerification(ctx: Ctx, customer: CustomerRow, kyc: KycState): Promise<void> {
  kyc.status = "PROCESSING";
  kyc.failure_reason = null;
  customer.kyc = kyc;
  customer.updated_at = (await ctx.domain.clock(customer.org)).iso();
  const outcome = kycOutcome([customer.full_name, ...stringsIn(kyc.data)]);
  await ctx.domain.plan("CUSTOMER", customer, outcome ? [outcome] : []);
  await ctx.domain.store.customers.put(customer);
}

function submissionResult(kyc: KycState) {
  return { id: kyc.id, status: kyc.status, failure_reason: kyc.failure_reason };
}

export async function addKycData(ctx: OperationContext<"addKycData">): Promise<HandlerResult> {
  const { body } = ctx;
  requireMembers(body, ["customer_id"]);
  const customer = await findCustomer(ctx, body.customer_id);
  if (customer.kyc)
    throw badRequest(
      "UNKNOWN_ERROR",
      "KYC already exists",
      "customer_id",
      "KYC already exists for this customer; use the update operations.",
    );
  const required: Array<keyof typeof body & string> = [
    "full_name",
    "dob",
    "document_type",
    "document_details",
    "selfie_url",
  ];
  if (COUNTRIES[customer.country]?.taxRequired) required.push("tax_number");
  requireMembers(body, required);
  if (body.document_details.document_number === undefined) throw missingFields(["document_details.document_number"]);
  const documentType = body.document_type;
  checkDocumentType(customer, documentType);
  checkImages(body, documentType);
  checkAdditionalInfo(body.additional_info);
  const { customer_id: _ignored, ...data } = body;
  await checkNotInUse(ctx, customer, data);
  customer.document_type = documentType;
  const kyc: KycState = { id: randomUUID(), status: "PROCESSING", failure_reason: null, data, updates: 0 };
  await startVerification(ctx, customer, kyc);
  return { message: "KYC data added successfully", data: submissionResult(kyc) };
}

type KycUpdateContext = OperationContext<"updateKycSelfie" | "updateKycTaxInfo" | "updateKycDocumentInfo">;

/** The common part of the three updates: the customer, existing KYC, and the update limit. */
async function updatable(ctx: KycUpdateContext): Promise<{ customer: CustomerRow; kyc: KycState }> {
  requireMembers(ctx.body, ["customer_id"]);
  const customer = await findCustomer(ctx, ctx.body.customer_id);
  const kyc = customer.kyc;
  if (!kyc)
    throw badRequest(
      "UNKNOWN_ERROR",
      "KYC not found",
      "customer_id",
      "Submit KYC with add-kyc-data before updating it.",
    );
  if (kyc.updates >= KYC_UPDATE_LIMIT) {
    throw new ApiError(400, "KYC_UPDATE_LIMIT_EXCEEDED", "Kyc update limit exceeded", {
      limit_exceeded: [`KYC information can be updated at most ${KYC_UPDATE_LIMIT} times.`],
    });
  }
  return { customer, kyc };
}

async function applyUpdate(
  ctx: Ctx,
  customer: CustomerRow,
  kyc: KycState,
  changes: Record<string, unknown>,
): Promise<KycState> {
  const updated: KycState = { ...kyc, id: randomUUID(), data: { ...kyc.data, ...changes }, updates: kyc.updates + 1 };
  await startVerification(ctx, customer, updated);
  return updated;
}

export async function updateKycSelfie(ctx: OperationContext<"updateKycSelfie">): Promise<HandlerResult> {
  const { customer, kyc } = await updatable(ctx);
  const updated = await applyUpdate(ctx, customer, kyc, { selfie_url: ctx.body.selfie_url });
  return { message: "Selfie updated successfully", data: submissionResult(updated) };
}

export async function updateKycTaxInfo(ctx: OperationContext<"updateKycTaxInfo">): Promise<HandlerResult> {
  const { customer, kyc } = await updatable(ctx);
  requireMembers(ctx.body, ["tax_number"]);
  const changes = { tax_number: ctx.body.tax_number };
  await checkNotInUse(ctx, customer, { ...kyc.data, ...changes, document_details: undefined });
  const updated = await applyUpdate(ctx, customer, kyc, changes);
  return { message: "Tax information updated successfully", data: submissionResult(updated) };
}

export async function updateKycDocumentInfo(ctx: OperationContext<"updateKycDocumentInfo">): Promise<HandlerResult> {
  const { customer, kyc } = await updatable(ctx);
  const { body } = ctx;
  requireMembers(body, ["document_type", "document_details"]);
  const details = body.document_details;
  if (details.document_number === undefined) throw missingFields(["document_details.document_number"]);
  const documentType = body.document_type;
  checkDocumentType(customer, documentType);
  checkImages(body, documentType);
  const changes: Record<string, unknown> = { document_type: documentType, document_details: details };
  for (const key of ["document_front_image_url", "document_back_image_url"] as const)
    if (body[key] !== undefined) changes[key] = body[key];
  await checkNotInUse(ctx, customer, { ...changes, tax_number: undefined });
  customer.document_type = documentType;
  const updated = await applyUpdate(ctx, customer, kyc, changes);
  return { message: "Document information updated successfully", data: submissionResult(updated) };
}

/** Payout-only onboarding: the customer is found by client_reference_id; field errors use UNKNOWN_ERROR. */
export async function addPayoutSenderKycData(ctx: OperationContext<"addPayoutSenderKycData">): Promise<HandlerResult> {
  const { body, domain, org } = ctx;
  requireMembers(body, ["client_reference_id", "document_type"]);
  const reference = body.client_reference_id;
  const customer = await domain.store.customers.first("org = ? AND client_ref = ?", org.id, reference);
  if (!customer)
    throw badRequest(
      "UNKNOWN_ERROR",
      "Customer not found",
      "client_reference_id",
      "No customer with this client_reference_id.",
    );
  const countryCode = text(body, "country_code");
  if (countryCode !== undefined && countryCode !== customer.country) {
    throw badRequest(
      "UNKNOWN_ERROR",
      "country_code does not match the customer's country",
      "country_code",
      `Must match the customer's country (${customer.country}).`,
    );
  }
  // Per-country requirements are not published; the sandbox asks India for the PAN and others for the address.
  requireMembers(body, customer.country === "IND" ? ["tax_number"] : ["street", "city", "postal_code"]);
  const now = (await domain.clock(customer.org)).iso();
  const row: SenderKycRow = {
    id: randomUUID(),
    org: org.id,
    client_reference_id: reference,
    customer_id: customer.id,
    data: body,
    created_at: now,
    updated_at: now,
  };
  await domain.store.senderKyc.put(row);
  if (customer.status !== "VERIFIED") {
    const kyc: KycState = customer.kyc ?? {
      id: row.id,
      status: "PROCESSING",
      failure_reason: null,
      data: {},
      updates: 0,
    };
    kyc.data = { ...kyc.data, ...body };
    await startVerification(ctx, customer, kyc);
  }
  return { message: "Sender KYC added successfully", data: { id: row.id, client_reference_id: reference } };
}

/** The remitter's members are not published: the sandbox stores what it is sent and returns it with an `id`. */
export async function createKycRemitter(ctx: OperationContext<"createKycRemitter">): Promise<HandlerResult> {
  const now = (await ctx.domain.clock(ctx.org.id)).iso();
  const row: RemitterRow = { id: randomUUID(), org: ctx.org.id, data: ctx.body, created_at: now, updated_at: now };
  await ctx.domain.store.remitters.put(row);
  return { message: "Remitter created successfully", data: { ...ctx.body, id: row.id, created_at: now } };
}
