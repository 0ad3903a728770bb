import { describe, expect, it } from "vitest";
import {
  Api,
  createCustomer,
  kycBody,
  ORG_B,
  startReceiver,
  startSandbox,
  unique,
  verifiedCustomer,
  waitFor,
} from "./helpers.js";

const ADD = "/cms/api/v1/kyc/add-kyc-data";

describe("KYC", () => {
  it("serves the KYC configuration of the customer's country", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api);
    const config = await api.ok("GET", `/cms/api/v1/kyc/configuration/${customer.id}`);
    expect(config.is_tax_required).toBe(true);
    expect(config.supported_document_types).toContain("AADHAAR");
    expect(config.additional_info_required.options).toContain("occupation");
    const other = await api.as(ORG_B).get(`/cms/api/v1/kyc/configuration/${customer.id}`);
    expect(other.body.err_code).toBe("AUTH_ORG_MISMATCH");
  });

  it("answers PROCESSING and then verifies the customer with a CUSTOMER VERIFIED event", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    const receiver = await startReceiver();
    await api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    const customer = await createCustomer(api);
    const result = await api.ok("POST", ADD, kycBody(customer.id));
    expect(result).toMatchObject({ status: "PROCESSING", failure_reason: null });
    const delivery = await waitFor(() => receiver.deliveries.find((d) => d.body.type === "CUSTOMER"), "CUSTOMER event");
    expect(delivery.body).toMatchObject({ type: "CUSTOMER", id: customer.id, event: "VERIFIED", metadata: {} });
    const fetched = await api.ok("GET", `/cms/api/v1/customer/${customer.id}`);
    expect(fetched).toMatchObject({ status: "VERIFIED", document_type: "PASSPORT" });
  });

  it.each([
    ["FAIL_KYC", "KYC_FAILED"],
    ["FAIL_DOCUMENT", "DOCUMENT_VERIFICATION_FAILED"],
    ["FAIL_TAX", "TAX_VERIFICATION_FAILED"],
    ["FAIL_ADDITIONAL_INFO", "ADDITIONAL_INFO_VERIFICATION_FAILED"],
  ])("fails KYC with %s in the name, with failure_reason %s", async (magic, reason) => {
    const api = new Api(await startSandbox());
    const receiver = await startReceiver();
    await api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    const customer = await verifiedCustomer(api, { full_name: `Asha ${magic} Verma` });
    expect(customer).toMatchObject({ status: "FAILED", failure_reason: reason });
    const event = await waitFor(() => receiver.deliveries[0], "event");
    expect(event.body).toMatchObject({ type: "CUSTOMER", event: "FAILED", metadata: { failure_reason: reason } });
  });

  it("reads the KYC magic values from the submitted data too, so an update can fix them", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api);
    await api.ok("POST", ADD, kycBody(customer.id, { tax_number: "FAIL_TAX1" }));
    await waitFor(
      async () => (await api.ok("GET", `/cms/api/v1/customer/${customer.id}`)).status === "FAILED",
      "FAILED",
    );
    await api.ok("PATCH", "/cms/api/v1/kyc/update-tax-info", { customer_id: customer.id, tax_number: "ABCPV1234K" });
    await waitFor(
      async () => (await api.ok("GET", `/cms/api/v1/customer/${customer.id}`)).status === "VERIFIED",
      "VERIFIED after update",
    );
  });

  it("accepts AADHAAR with aadhaar_json instead of images, and answers KYC_INVALID_AADHAAR_INPUT with neither", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api);
    const without = await api.post(
      ADD,
      kycBody(customer.id, { document_type: "AADHAAR", document_front_image_url: undefined }),
    );
    expect(without.status).toBe(400);
    expect(without.body.err_code).toBe("KYC_INVALID_AADHAAR_INPUT");
    const withJson = await api.post(
      ADD,
      kycBody(customer.id, {
        document_type: "AADHAAR",
        document_front_image_url: undefined,
        document_back_image_url: undefined,
        document_details: { document_number: "234567890123", additional_data: { aadhaar_json: { name: "Asha" } } },
      }),
    );
    expect(withJson.status).toBe(200);
  });

  it("requires both images for document types other than AADHAAR", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api);
    const res = await api.post(ADD, kycBody(customer.id, { document_back_image_url: undefined }));
    expect(res.body).toMatchObject({
      err_code: "REQ_FIELD_MISSING",
      errors: { document_back_image_url: ["This field is required."] },
    });
  });

  it("answers KYC_INVALID_DOC_TYPE for a document type the country does not support", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api);
    const res = await api.post(ADD, kycBody(customer.id, { document_type: "EMIRATES_ID" }));
    expect(res.body.err_code).toBe("KYC_INVALID_DOC_TYPE");
  });

  it("answers INPUT_MALFORMED_ADDITIONAL_INFO for unknown or missing additional_info fields", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api);
    const unknown = await api.post(
      ADD,
      kycBody(customer.id, { additional_info: { occupation: "x", shoe_size: "42" } }),
    );
    expect(unknown.body).toMatchObject({
      err_code: "INPUT_MALFORMED_ADDITIONAL_INFO",
      errors: { "additional_info.shoe_size": ["Unknown field."] },
    });
    const missing = await api.post(ADD, kycBody(customer.id, { additional_info: { annual_income: "10L" } }));
    expect(missing.body.errors["additional_info.occupation"]).toEqual(["This field is required."]);
  });

  it("answers KYC_IN_USE when another customer submitted the same document number", async () => {
    const api = new Api(await startSandbox());
    const first = await createCustomer(api);
    const second = await createCustomer(api);
    const body = kycBody(first.id);
    await api.ok("POST", ADD, body);
    const res = await api.post(ADD, { ...kycBody(second.id), document_details: body.document_details });
    expect(res.body).toMatchObject({ err_code: "KYC_IN_USE", message: "KYC already in use" });
  });

  it("rejects a second submission for the same customer with KYC already exists", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api);
    await api.ok("POST", ADD, kycBody(customer.id));
    const res = await api.post(ADD, kycBody(customer.id));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("KYC already exists");
  });

  it("requires the tax number for India, where the configuration says is_tax_required", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api);
    const res = await api.post(ADD, kycBody(customer.id, { tax_number: undefined }));
    expect(res.body).toMatchObject({
      err_code: "REQ_FIELD_MISSING",
      errors: { tax_number: ["This field is required."] },
    });
  });

  it("allows at most 3 KYC updates, then answers KYC_UPDATE_LIMIT_EXCEEDED with errors.limit_exceeded", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api);
    await api.ok("POST", ADD, kycBody(customer.id));
    const selfie = { customer_id: customer.id, selfie_url: "https://files.example.com/s2.png" };
    expect((await api.ok("PATCH", "/cms/api/v1/kyc/update-selfie-info", selfie)).status).toBe("PROCESSING");
    await api.ok("PATCH", "/cms/api/v1/kyc/update-tax-info", { customer_id: customer.id, tax_number: "ABCPV9999K" });
    await api.ok("PATCH", "/cms/api/v1/kyc/update-document-info", {
      customer_id: customer.id,
      document_type: "PASSPORT",
      document_details: { document_number: unique("P") },
      document_front_image_url: "https://files.example.com/f.png",
      document_back_image_url: "https://files.example.com/b.png",
    });
    const fourth = await api.patch("/cms/api/v1/kyc/update-selfie-info", selfie);
    expect(fourth.status).toBe(400);
    expect(fourth.body).toMatchObject({ err_code: "KYC_UPDATE_LIMIT_EXCEEDED", message: "Kyc update limit exceeded" });
    expect(fourth.body.errors.limit_exceeded).toHaveLength(1);
    const tax = await api.patch("/cms/api/v1/kyc/update-tax-info", {
      customer_id: customer.id,
      tax_number: "ABCPV8888K",
    });
    expect(tax.body.err_code).toBe("KYC_UPDATE_LIMIT_EXCEEDED");
  });

  it("keeps a KYC_MANUAL customer UNVERIFIED until the control API moves it", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api, { full_name: "Manual KYC_MANUAL" });
    await api.ok("POST", ADD, kycBody(customer.id));
    await new Promise((r) => setTimeout(r, 50));
    expect((await api.ok("GET", `/cms/api/v1/customer/${customer.id}`)).status).toBe("UNVERIFIED");
    const moved = await api.ok("POST", `/_sandbox/customers/${customer.id}/transition`, {
      status: "FAILED",
      failure_reason: "DOCUMENT_VERIFICATION_FAILED",
    });
    expect(moved.record).toMatchObject({ status: "FAILED", failure_reason: "DOCUMENT_VERIFICATION_FAILED" });
    expect(moved.event.body).toMatchObject({
      type: "CUSTOMER",
      event: "FAILED",
      metadata: { failure_reason: "DOCUMENT_VERIFICATION_FAILED" },
    });
  });

  it("refuses a sender KYC tax_number longer than 15 characters, naming the field", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api, { alpha_3_country_code: "BRA", full_name: "Joao Silva" });
    const res = await api.post("/cms/api/v1/kyc/payout/add-sender-kyc-data", {
      client_reference_id: customer.client_reference_id,
      document_type: "PASSPORT",
      tax_number: "X".repeat(16),
      street: "Rua A",
      city: "Sao Paulo",
      postal_code: "01000-000",
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errors: { tax_number: ["Ensure this field has no more than 15 characters."] } });
  });

  it("onboards a payout-only customer through sender KYC, with UNKNOWN_ERROR field errors", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api, { alpha_3_country_code: "BRA", full_name: "Joao Silva" });
    const missing = await api.post("/cms/api/v1/kyc/payout/add-sender-kyc-data", {
      client_reference_id: customer.client_reference_id,
      document_type: "PASSPORT",
      street: "Rua A",
      city: "Sao Paulo",
    });
    expect(missing.body).toMatchObject({
      err_code: "UNKNOWN_ERROR",
      errors: { postal_code: ["This field is required."] },
    });
    const result = await api.ok("POST", "/cms/api/v1/kyc/payout/add-sender-kyc-data", {
      client_reference_id: customer.client_reference_id,
      country_code: "BRA",
      document_type: "PASSPORT",
      street: "Rua A",
      city: "Sao Paulo",
      postal_code: "01000-000",
    });
    expect(result.client_reference_id).toBe(customer.client_reference_id);
    await waitFor(
      async () => (await api.ok("GET", `/cms/api/v1/customer/${customer.id}`)).status === "VERIFIED",
      "VERIFIED",
    );
  });
});
