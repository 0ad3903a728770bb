// On a sandbox the operation tools take what the sandbox takes: their input is the sandbox's spec (an http://
// loopback webhook URL, the members the sandbox requires), listed and checked; on the service it is the published
// spec (https:// only). Against a real sandbox, whose request log shows what was sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fieldOf } from "../src/sandbox-validation.js";
import { callTool, listedTools, resolveContext, type ServerContext } from "../src/server.js";
import { credentials, type Sandbox, startSandbox } from "./support/sandbox.js";

const LOOPBACK_RECEIVER = { webhook_url: "http://127.0.0.1:8787/webhooks/exchange" };

let sandbox: Sandbox;
/** The server as started against the sandbox: it asks the base URL and finds a sandbox. */
let onSandbox: ServerContext;
/** The same base URL, but the server told it is not a sandbox: the published spec's rules. */
let asService: ServerContext;

beforeAll(async () => {
  sandbox = await startSandbox();
  onSandbox = await resolveContext({ baseUrl: sandbox.url, ...credentials, allowWrites: true });
  asService = await resolveContext({ baseUrl: sandbox.url, ...credentials, allowWrites: true, sandbox: false });
});
afterAll(() => sandbox?.close());

/** How many requests of an operation the sandbox received. */
async function sent(operationId: string): Promise<number> {
  const log = await callTool(onSandbox, "sandbox_list_requests", { operation_id: operationId });
  return (log.structuredContent as { results: unknown[] }).results.length;
}

/** The fields a tool error names, from the details after its message. */
function fieldErrors(result: { content: Array<{ text: string }> }): Record<string, string[]> {
  const text = result.content[0]!.text;
  return JSON.parse(text.slice(text.indexOf("\n\n") + 2)).field_errors;
}

const inputOf = async (context: ServerContext, name: string) =>
  JSON.stringify((await listedTools(context)).find((tool) => tool.name === name)?.inputSchema);

describe("the operation tools on a sandbox", () => {
  it("register an http:// loopback webhook URL, as the sandbox takes it", async () => {
    const result = await callTool(onSandbox, "registerWebhook", { body: LOOPBACK_RECEIVER });
    expect(result.isError, result.content[0]?.text).toBeFalsy();
    expect(await sent("registerWebhook")).toBe(1);
  });

  it("list the sandbox's input schema, which names the loopback URLs", async () => {
    expect(await inputOf(onSandbox, "registerWebhook")).toContain("127\\\\.0\\\\.0\\\\.1");
    expect(await inputOf(asService, "registerWebhook")).not.toContain("127\\\\.0\\\\.0\\\\.1");
  });

  it("refuse a body without a member the sandbox requires, and send nothing", async () => {
    const before = await sent("createCustomer");
    const result = await callTool(onSandbox, "createCustomer", {
      body: { client_reference_id: "sandbox-spec-1", full_name: "Asha Verma" },
    });
    expect(result.isError).toBe(true);
    expect(fieldErrors(result)).toEqual({ "body.alpha_3_country_code": ["is required"] });
    expect(await sent("createCustomer")).toBe(before);
  });

  it("still refuse an http:// webhook URL that is not on loopback", async () => {
    const result = await callTool(onSandbox, "registerWebhook", { body: { webhook_url: "http://hooks.example.in/x" } });
    expect(result.isError).toBe(true);
    expect(Object.keys(fieldErrors(result))).toEqual(["body.webhook_url"]);
  });
});

describe("the operation tools on the service", () => {
  it("refuse an http:// webhook URL, loopback included (the service requires https://), and send nothing", async () => {
    const before = await sent("registerWebhook");
    const result = await callTool(asService, "registerWebhook", { body: LOOPBACK_RECEIVER });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain("was not sent");
    expect(Object.keys(fieldErrors(result))).toEqual(["body.webhook_url"]);
    expect(await sent("registerWebhook")).toBe(before);
  });
});

describe("a sandbox body fault's field", () => {
  it.each([
    ["a member's value", { keyword: "pattern", instancePath: "/webhook_url", params: {} }, "body.webhook_url"],
    ["a missing member", { keyword: "required", instancePath: "", params: { missingProperty: "dob" } }, "body.dob"],
    [
      "a nested missing member",
      { keyword: "required", instancePath: "/identifiers", params: { missingProperty: "vpa" } },
      "body.identifiers.vpa",
    ],
    ["an escaped key", { keyword: "type", instancePath: "/a~1b", params: {} }, "body.a/b"],
  ])("names %s as the published path does", (_name, error, field) => {
    expect(fieldOf(error as never)).toBe(field);
  });
});
