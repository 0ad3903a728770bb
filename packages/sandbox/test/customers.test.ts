import { describe, expect, it } from "vitest";
import { Api, createCustomer, ORG_B, startSandbox, unique, uniquePhone } from "./helpers.js";

const CREATE = "/cms/api/v1/customer/create";

describe("customers", () => {
  it("creates a customer with status UNVERIFIED and the phone prefixed with the dial code", async () => {
    const api = new Api(await startSandbox());
    const phone = uniquePhone();
    const customer = await createCustomer(api, { phone, email: "asha@example.com" });
    expect(customer).toMatchObject({
      status: "UNVERIFIED",
      type: "INDIVIDUAL",
      country: "IND",
      failure_reason: null,
      phone: `+91${phone}`,
    });
  });

  it("returns the existing customer when a client_reference_id is sent again", async () => {
    const api = new Api(await startSandbox());
    const first = await createCustomer(api, { client_reference_id: "same-ref" });
    const again = await api.post(CREATE, {
      client_reference_id: "same-ref",
      full_name: "Someone Else",
      alpha_3_country_code: "IND",
    });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.id);
    expect(again.body.data.full_name).toBe("Asha Verma");
  });

  it("accepts first_name and last_name instead of full_name", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api, { full_name: undefined, first_name: "Asha", last_name: "Verma" });
    expect(customer.full_name).toBe("Asha Verma");
  });

  it("answers REQ_FIELD_MISSING for a name of spaces only, and stores nothing", async () => {
    const api = new Api(await startSandbox());
    const reference = unique("c");
    const blank = await api.post(CREATE, {
      client_reference_id: reference,
      full_name: "   ",
      alpha_3_country_code: "IND",
    });
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({
      err_code: "REQ_FIELD_MISSING",
      errors: { full_name: ["This field is required."] },
    });
    const halves = await api.post(CREATE, {
      client_reference_id: reference,
      first_name: "Asha",
      last_name: " ",
      alpha_3_country_code: "IND",
    });
    expect(halves.body).toMatchObject({
      err_code: "REQ_FIELD_MISSING",
      errors: { last_name: ["This field is required."] },
    });
    // Nothing was stored under the reference: the corrected request creates the customer.
    const corrected = await createCustomer(api, { client_reference_id: reference, full_name: "Asha Verma" });
    expect(corrected).toMatchObject({ client_reference_id: reference, full_name: "Asha Verma" });
  });

  it("answers USR_DUPLICATE_CONTACT for an email or phone already used in the organization", async () => {
    const api = new Api(await startSandbox());
    await createCustomer(api, { email: "dup@example.com", phone: "9876500001" });
    const email = await api.post(CREATE, {
      client_reference_id: unique("c"),
      full_name: "B",
      alpha_3_country_code: "IND",
      email: "DUP@example.com",
    });
    expect(email.status).toBe(400);
    expect(email.body).toMatchObject({
      err_code: "USR_DUPLICATE_CONTACT",
      message: "Email already in use",
      errors: { email: ["Email already in use"] },
    });
    const phone = await api.post(CREATE, {
      client_reference_id: unique("c"),
      full_name: "B",
      alpha_3_country_code: "IND",
      phone: "9876500001",
    });
    expect(phone.body).toMatchObject({ err_code: "USR_DUPLICATE_CONTACT", message: "Phone already in use" });
    // Another organization may use the same contact details.
    const other = await api.as(ORG_B).post(CREATE, {
      client_reference_id: unique("c"),
      full_name: "B",
      alpha_3_country_code: "IND",
      email: "dup@example.com",
    });
    expect(other.status).toBe(200);
  });

  it("answers REQ_INVALID_COUNTRY for an unknown or not enabled country", async () => {
    const api = new Api(await startSandbox());
    for (const code of ["XYZ", "PRK", "india"]) {
      const res = await api.post(CREATE, {
        client_reference_id: unique("c"),
        full_name: "A",
        alpha_3_country_code: code,
      });
      expect(res.status).toBe(400);
      expect(res.body.err_code).toBe("REQ_INVALID_COUNTRY");
      expect(res.body.errors.alpha_3_country_code).toHaveLength(1);
    }
  });

  it("answers the residence codes for the sandbox-only residence_country member", async () => {
    const api = new Api(await startSandbox());
    const invalid = await api.post(CREATE, {
      client_reference_id: unique("c"),
      full_name: "A",
      alpha_3_country_code: "IND",
      residence_country: "QQQ",
    });
    expect(invalid.body.err_code).toBe("REQ_INVALID_RESIDENCE_COUNTRY");
    const abroad = await api.post(CREATE, {
      client_reference_id: unique("c"),
      full_name: "A",
      alpha_3_country_code: "IND",
      residence_country: "ARE",
    });
    expect(abroad.body.err_code).toBe("REQ_NON_RESIDENT_UNSUPPORTED");
    const home = await api.post(CREATE, {
      client_reference_id: unique("c"),
      full_name: "A",
      alpha_3_country_code: "IND",
      residence_country: "IND",
    });
    expect(home.status).toBe(200);
  });

  it("requires dob for customers in the USA", async () => {
    const api = new Api(await startSandbox());
    const res = await api.post(CREATE, {
      client_reference_id: unique("c"),
      full_name: "John Doe",
      alpha_3_country_code: "USA",
    });
    expect(res.body).toMatchObject({ err_code: "REQ_FIELD_MISSING", errors: { dob: ["This field is required."] } });
    const ok = await api.post(CREATE, {
      client_reference_id: unique("c"),
      full_name: "John Doe",
      alpha_3_country_code: "USA",
      dob: "1990-01-31",
    });
    expect(ok.status).toBe(200);
  });

  it("validates the phone number per country", async () => {
    const api = new Api(await startSandbox());
    const res = await api.post(CREATE, {
      client_reference_id: unique("c"),
      full_name: "A",
      alpha_3_country_code: "IND",
      phone: "12345678",
    });
    expect(res.body).toMatchObject({
      err_code: "INPUT_MALFORMED",
      errors: { phone: [expect.stringContaining("IND")] },
    });
  });

  it("fetches a customer, and hides another organization's customer behind AUTH_ORG_MISMATCH", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    const customer = await createCustomer(api);
    expect((await api.get(`/cms/api/v1/customer/${customer.id}`)).body.data.id).toBe(customer.id);
    const other = await api.as(ORG_B).get(`/cms/api/v1/customer/${customer.id}`);
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ err_code: "AUTH_ORG_MISMATCH", message: "Customer not found or access denied" });
    const missing = await api.get("/cms/api/v1/customer/00000000-0000-4000-8000-000000000000");
    expect(missing.body).toMatchObject({ err_code: "USR_NOT_FOUND", message: "Customer not found or access denied" });
  });

  it("lists only the organization's customers, filtered by creation date", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    await createCustomer(api);
    await createCustomer(api);
    await createCustomer(api.as(ORG_B));
    const list = await api.ok("GET", "/cms/api/v1/customer/list");
    expect(list.count).toBe(2);
    const today = (await sandbox.clock.now()).toISOString().slice(0, 10);
    expect((await api.ok("GET", "/cms/api/v1/customer/list", undefined, { query: { start_date: today } })).count).toBe(
      2,
    );
    expect(
      (await api.ok("GET", "/cms/api/v1/customer/list", undefined, { query: { end_date: "2000-01-01" } })).count,
    ).toBe(0);
  });

  it("answers INPUT_INVALID_DATE_FORMAT for a customer list date that is not YYYY-MM-DD", async () => {
    const api = new Api(await startSandbox());
    const res = await api.get("/cms/api/v1/customer/list", { query: { start_date: "01-03-2026" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      err_code: "INPUT_INVALID_DATE_FORMAT",
      errors: { start_date: ["Date must be in YYYY-MM-DD format."] },
    });
  });
});
