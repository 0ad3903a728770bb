// Type-level tests, run by `vitest --typecheck` (and by `tsc --noEmit` in `pnpm lint`).
import { describe, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type {
  ApiResponse,
  BankAccount,
  components,
  Customer,
  Envelope,
  ErrCode,
  errCodes,
  OperationId,
  OperationErrorBody,
  OperationMethod,
  OperationPathParams,
  OperationQueryParams,
  OperationPath,
  OperationRequestBody,
  OperationSuccessData,
  operationIndex,
  OperationRoute,
  operationRoutes,
  operations,
  PayinOrder,
  paths,
  PayoutQuotation,
  Wallet,
  WebhookEvent,
  WebhookEventBase,
  WebhookEventOf,
  webhooks,
} from "../src/index.js";
import type { componentSchemas, CustomerSchema, WebhookEventSchema } from "../src/zod.js";

describe("the generated types", () => {
  it("type decimal amounts as strings and the wallet ID as a number", () => {
    expectTypeOf<PayinOrder["sending_amount"]>().toEqualTypeOf<string>();
    expectTypeOf<PayoutQuotation["receiving_amount"]>().toEqualTypeOf<string>();
    expectTypeOf<Wallet["id"]>().toEqualTypeOf<number>();
  });

  it("have the createCustomer operation under its path and method", () => {
    expectTypeOf<paths["/cms/api/v1/customer/create"]["post"]>().toEqualTypeOf<operations["createCustomer"]>();
    expectTypeOf<keyof webhooks>().toEqualTypeOf<"CUSTOMER" | "BANK" | "PAYIN" | "PAYOUT" | "EDD">();
  });

  it("give each component a readable alias equal to components.schemas", () => {
    expectTypeOf<Customer>().toEqualTypeOf<components["schemas"]["Customer"]>();
    expectTypeOf<BankAccount>().toEqualTypeOf<components["schemas"]["BankAccount"]>();
    expectTypeOf<WebhookEventBase>().toEqualTypeOf<components["schemas"]["WebhookEventBase"]>();
  });

  it("keep the bank account's record members readable on the union of its rails", () => {
    expectTypeOf<BankAccount["id"]>().toEqualTypeOf<string>();
    expectTypeOf<BankAccount["bank_account_type"]>().toEqualTypeOf<"UPI" | "ACCOUNT_DETAILS">();
  });

  it("type request bodies as objects, not unknown, with the spec's alternatives", () => {
    type Body = OperationRequestBody<"createCustomer">;
    expectTypeOf<Body>().not.toBeUnknown();
    expectTypeOf<Body["client_reference_id"]>().toEqualTypeOf<string>();
    expectTypeOf<{ client_reference_id: string; alpha_3_country_code: string; full_name: string }>().toExtend<Body>();
    expectTypeOf<{ client_reference_id: string; alpha_3_country_code: string }>().not.toExtend<Body>();
  });

  it("keep the success envelope's data required and typed", () => {
    expectTypeOf<OperationSuccessData<"createCustomer">>().toEqualTypeOf<Customer>();
    expectTypeOf<Envelope<Customer>["data"]>().toEqualTypeOf<Customer>();
    expectTypeOf<ApiResponse<Customer>>().toExtend<{ status: boolean; message: string }>();
  });

  it("make ErrCode the union of every err_code value", () => {
    expectTypeOf<(typeof errCodes)[number]>().toEqualTypeOf<ErrCode>();
  });

  it("narrow a webhook event by checking type and event, as the README shows", () => {
    const handle = (event: WebhookEvent) => {
      if (event.type === "PAYIN" && event.event === "SUCCESS") return event.metadata.transaction_reference_id;
      if (event.type === "PAYOUT" && event.event === "IN_REVIEW") return event.metadata.reason;
      return undefined;
    };
    expectTypeOf(handle).returns.toEqualTypeOf<string | undefined>();
  });

  it("type path and query parameters and error bodies per operation", () => {
    expectTypeOf<OperationPathParams<"getCustomer">>().toEqualTypeOf<{ customer_id: string }>();
    expectTypeOf<OperationQueryParams<"listCustomers">>().toExtend<{ page?: number; per_page?: number }>();
    expectTypeOf<OperationErrorBody<"createCustomer">["err_code"]>().toExtend<ErrCode>();
    expectTypeOf<"USR_DUPLICATE_CONTACT">().toExtend<OperationErrorBody<"createCustomer">["err_code"]>();
  });

  it("narrow webhook events by type and event", () => {
    expectTypeOf<WebhookEvent["type"]>().toEqualTypeOf<"CUSTOMER" | "BANK" | "PAYIN" | "PAYOUT" | "EDD">();
    type Success = WebhookEventOf<"PAYIN", "SUCCESS">;
    expectTypeOf<Success["metadata"]["transaction_reference_id"]>().toEqualTypeOf<string>();
    expectTypeOf<WebhookEventOf<"CUSTOMER">["event"]>().toEqualTypeOf<"VERIFIED" | "FAILED">();
  });
});

describe("the open lists", () => {
  it("type a customer's status as its known values, where a value the service adds later still compiles", () => {
    expectTypeOf<"UNVERIFIED">().toExtend<Customer["status"]>();
    expectTypeOf<"FAILED">().toExtend<Customer["status"]>();
    expectTypeOf<"SUSPENDED">().toExtend<Customer["status"]>();
    expectTypeOf<Customer["status"]>().toExtend<string>();
  });

  it("keep the known values as literals rather than collapsing them into string", () => {
    type Known<T> = T extends string ? (string extends T ? never : T) : never;
    expectTypeOf<Known<Customer["status"]>>().toEqualTypeOf<"UNVERIFIED" | "VERIFIED" | "FAILED">();
    expectTypeOf<Known<Customer["type"]>>().toEqualTypeOf<"INDIVIDUAL">();
    expectTypeOf<Known<NonNullable<Customer["document_type"]>>>().toEqualTypeOf<"AADHAAR">();
    expectTypeOf<Known<components["schemas"]["KycSubmissionResult"]["status"]>>().toEqualTypeOf<"PROCESSING">();
  });
});

describe("the operation index types", () => {
  it("map an operationId to its path and method", () => {
    expectTypeOf<OperationPath<"createCustomer">>().toEqualTypeOf<"/cms/api/v1/customer/create">();
    expectTypeOf<OperationMethod<"createCustomer">>().toEqualTypeOf<"post">();
    expectTypeOf<(typeof operationIndex)["getCustomer"]["pathParams"]>().toEqualTypeOf<readonly ["customer_id"]>();
    expectTypeOf<OperationId>().toEqualTypeOf<keyof typeof operationIndex>();
  });

  it("type each route as a literal tuple with the index entry's members", () => {
    expectTypeOf<(typeof operationRoutes)["getCustomer"]>().toEqualTypeOf<
      readonly [
        "Customers",
        "/cms/api/v1/customer/{customer_id}",
        "get",
        readonly ["customer_id"],
        readonly [],
        false,
        "safe",
      ]
    >();
    expectTypeOf<(typeof operationRoutes)[OperationId]>().toMatchTypeOf<OperationRoute>();
    expectTypeOf<keyof typeof operationRoutes>().toEqualTypeOf<OperationId>();
    expectTypeOf<(typeof operationIndex)["createCustomer"]["summary"]>().toEqualTypeOf<"Create a customer">();
    expectTypeOf<(typeof operationIndex)["createCustomer"]["bodyRequired"]>().toEqualTypeOf<true>();
  });

  it("name operations that exist in paths under the indexed path and method", () => {
    type Check<Id extends OperationId> = Id extends OperationId
      ? paths[OperationPath<Id>][OperationMethod<Id>] extends operations[Id]
        ? true
        : false
      : never;
    expectTypeOf<Check<OperationId>>().toEqualTypeOf<true>();
  });
});

describe("the zod schemas", () => {
  it("parse into values assignable to the generated types, for every component", () => {
    type Schemas = typeof componentSchemas;
    type Mismatches = {
      [N in keyof Schemas]: z.output<Schemas[N]> extends components["schemas"][N] ? never : N;
    }[keyof Schemas];
    expectTypeOf<Mismatches>().toEqualTypeOf<never>();
  });

  it("parse a customer and a webhook event into the generated types", () => {
    expectTypeOf<z.output<typeof CustomerSchema>>().toExtend<Customer>();
    expectTypeOf<z.output<typeof WebhookEventSchema>>().toExtend<WebhookEvent>();
  });
});
