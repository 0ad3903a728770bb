// The sandbox's control API as tools (`sandbox_*`), listed only when the base URL answers it: move a record to a
// status with the catalog's reason fields, advance the clock, arm and clear faults, read the request log and the
// event log, redeliver an event. The calls are signed by the client like any other.
import type { ExchangeClient } from "@exchange-kit/client";
import { type WebhookEventType, webhookEventTypes, webhookMetadataRules } from "@exchange-kit/types";
import { errorResult, resultOf, type ToolResult } from "./results.js";
import type { SafetyAnnotations } from "./safety.js";

/** A sandbox tool: what tools/list shows, and the control call it makes. */
export interface SandboxTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: { type: "object" } & Record<string, unknown>;
  readonly annotations: SafetyAnnotations;
  readonly request: (args: Record<string, unknown>) => ControlRequest;
  /** Shapes the answer for the model (the request log leaves bodies out). */
  readonly shape?: (data: unknown) => unknown;
}

type QueryValue = string | number | boolean | null | undefined;

interface ControlRequest {
  method: "GET" | "POST" | "DELETE";
  path: `/${string}`;
  query?: Record<string, QueryValue>;
  body?: Record<string, unknown>;
}

// The control API's collection of each event type (its transition route); typed by the spec's event types, so a
// type added to the spec fails to compile here until it has its route.
const COLLECTIONS: Record<WebhookEventType, string> = {
  CUSTOMER: "customers",
  BANK: "banks",
  PAYIN: "payins",
  PAYOUT: "payouts",
  EDD: "edd",
};

const READ: SafetyAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const CONTROL: SafetyAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/** The catalog's events and their reason fields, one line per record type, for the transition tool's description. */
export function reasonCatalog(): string {
  return webhookEventTypes
    .map((type) => {
      const events = Object.entries(
        webhookMetadataRules[type] as Record<string, Record<string, { values?: readonly string[] }>>,
      )
        .map(([event, keys]) => {
          const reasons = Object.entries(keys)
            .filter(([key]) => key !== "client_reference_id")
            .map(([key, rule]) => (rule.values ? `${key}: ${rule.values.join(" | ")}` : key));
          return reasons.length > 0 ? `${event} (${reasons.join("; ")})` : event;
        })
        .join(", ");
      return `- ${type}: ${events}`;
    })
    .join("\n");
}

const str = (description: string) => ({ type: "string", description });
// Values come from tools/call arguments, which the input schemas keep to strings and integers.
const pick = (args: Record<string, unknown>, keys: readonly string[]): Record<string, QueryValue> =>
  Object.fromEntries(keys.filter((k) => args[k] !== undefined).map((k) => [k, args[k] as QueryValue]));

const REASON_KEYS = ["failure_reason", "refund_reason", "reason", "rfi_link"] as const;
const LOG_FILTERS = ["status", "err_code", "operation_id", "since", "order", "before", "after", "limit"] as const;

/** A request log entry without its bodies: a body may hold personal data another caller sent. */
export function withoutBodies(entry: Record<string, unknown>): Record<string, unknown> {
  const sizeOnly = (body: unknown) => {
    const { bytes, truncated } = (body ?? {}) as { bytes?: unknown; truncated?: unknown };
    return { bytes, truncated, text: "[left out: read your own call's result]" };
  };
  return { ...entry, request: sizeOnly(entry.request), response: sizeOnly(entry.response) };
}

const transition: SandboxTool = {
  name: "sandbox_transition",
  title: "Move a sandbox record to a status",
  description:
    "Moves a sandbox record (customer, bank account, payin, payout, EDD) to a status and emits its webhook event, " +
    "as the service would. The source status is not checked. Reason fields by record type and event (the " +
    `spec's catalog):\n${reasonCatalog()}`,
  inputSchema: {
    type: "object",
    properties: {
      record: { type: "string", enum: [...webhookEventTypes], description: "The record's webhook event type." },
      id: str("The record's ID."),
      status: str("The status to move it to, e.g. VERIFIED, FAILED, SUCCESS, REFUNDED, IN_REVIEW."),
      ...Object.fromEntries(REASON_KEYS.map((key) => [key, str(`The event's ${key}, where the catalog has one.`)])),
    },
    required: ["record", "id", "status"],
    additionalProperties: false,
  },
  annotations: CONTROL,
  request: (args) => ({
    method: "POST",
    path: `/_sandbox/${COLLECTIONS[args.record as WebhookEventType]}/${encodeURIComponent(String(args.id))}/transition`,
    body: pick(args, ["status", ...REASON_KEYS]),
  }),
};

const advanceClock: SandboxTool = {
  name: "sandbox_advance_clock",
  title: "Advance the sandbox clock",
  description:
    "Moves this organization's sandbox time forward (quotation expiry, record timestamps, history dates). Timers " +
    "(automatic steps, webhook retries) keep real time.",
  inputSchema: {
    type: "object",
    properties: { seconds: { type: "integer", minimum: 1, description: "How far to move the clock." } },
    required: ["seconds"],
    additionalProperties: false,
  },
  annotations: CONTROL,
  request: (args) => ({ method: "POST", path: "/_sandbox/clock/advance", body: { seconds: args.seconds } }),
};

const armFault: SandboxTool = {
  name: "sandbox_arm_fault",
  title: "Arm a sandbox fault",
  description:
    "Arms a fault for the next request(s) to an operation (an operationId, or * for every one) or the next webhook " +
    "event(s) of a type: e.g. HTTP_500, TIMEOUT, DROP_AFTER_COMMIT, RESET, DELAY, RATE_LIMIT. A wrong member is " +
    "a tool error naming it.",
  inputSchema: {
    type: "object",
    properties: {
      operation: str("An operationId of the spec, or * for every operation."),
      event_type: { type: "string", enum: [...webhookEventTypes], description: "A webhook event type." },
      fault: str("The fault's kind."),
      times: { type: "integer", minimum: 1, description: "How many times it fires (default 1)." },
      delay_ms: { type: "integer", minimum: 0, description: "For DELAY faults." },
      retry_after: { type: "integer", minimum: 0, description: "For rate-limit faults: the Retry-After seconds." },
    },
    required: ["fault"],
    additionalProperties: false,
  },
  annotations: CONTROL,
  request: (args) => ({
    method: "POST",
    path: "/_sandbox/faults",
    body: pick(args, ["operation", "event_type", "fault", "times", "delay_ms", "retry_after"]),
  }),
};

const clearFaults: SandboxTool = {
  name: "sandbox_clear_faults",
  title: "Clear the sandbox faults",
  description: "Disarms every armed fault and forgets the faults that fired.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  annotations: { ...CONTROL, idempotentHint: true },
  request: () => ({ method: "DELETE", path: "/_sandbox/faults" }),
};

const listRequests: SandboxTool = {
  name: "sandbox_list_requests",
  title: "Read the sandbox request log",
  description:
    "This organization's requests as the sandbox answered them (method, path, operation_id, status, err_code, " +
    "latency, the fault injected), newest first; filters as `exchange-kit logs`. Bodies are left out (a body may " +
    "hold personal data another caller sent); page back with before: <oldest seq shown>.",
  inputSchema: {
    type: "object",
    properties: {
      status: str("An exact status (404) or a class (4xx)."),
      err_code: str("An exact err_code."),
      operation_id: str("An exact operationId."),
      since: str("ISO 8601 time: entries that arrived at or after it."),
      order: { type: "string", enum: ["desc", "asc"], description: "desc (newest first, the default) or asc." },
      before: { type: "integer", minimum: 0, description: "Entries numbered below this seq." },
      after: { type: "integer", minimum: 0, description: "Entries numbered above this seq." },
      limit: { type: "integer", minimum: 1, maximum: 1000, description: "At most this many (default 100)." },
    },
    additionalProperties: false,
  },
  annotations: READ,
  request: (args) => ({ method: "GET", path: "/_sandbox/requests", query: pick(args, LOG_FILTERS) }),
  shape: (data) => {
    const page = data as { results?: Record<string, unknown>[] };
    return { ...page, results: (page.results ?? []).map(withoutBodies) };
  },
};

const listEvents: SandboxTool = {
  name: "sandbox_list_events",
  title: "List the sandbox's webhook events",
  description:
    "This organization's webhook events, oldest first, each with its deliveries and their attempts (the " +
    "receiver's status, a retry's next_attempt_at). Filter by record type, record id and event.",
  inputSchema: {
    type: "object",
    properties: {
      type: { type: "string", enum: [...webhookEventTypes], description: "The event type." },
      id: str("The record's ID."),
      event: str("The event, e.g. VERIFIED or SUCCESS."),
    },
    additionalProperties: false,
  },
  annotations: READ,
  request: (args) => ({ method: "GET", path: "/_sandbox/events", query: pick(args, ["type", "id", "event"]) }),
};

const redeliver: SandboxTool = {
  name: "sandbox_redeliver_event",
  title: "Redeliver a sandbox webhook event",
  description: "Delivers an event again to the registered webhook URL (with its own retries).",
  inputSchema: {
    type: "object",
    properties: { event_id: str("The event's ID, from sandbox_list_events.") },
    required: ["event_id"],
    additionalProperties: false,
  },
  annotations: CONTROL,
  request: (args) => ({
    method: "POST",
    path: `/_sandbox/events/${encodeURIComponent(String(args.event_id))}/redeliver`,
  }),
};

/** Every sandbox tool, in the order tools/list shows them. */
export const sandboxTools: readonly SandboxTool[] = [
  transition,
  advanceClock,
  armFault,
  clearFaults,
  listRequests,
  listEvents,
  redeliver,
];

/** The required arguments of a sandbox tool that are missing, and the ones it does not take. */
function argumentProblems(tool: SandboxTool, args: Record<string, unknown>): string[] {
  const properties = tool.inputSchema.properties as Record<string, unknown>;
  const required = (tool.inputSchema.required as string[] | undefined) ?? [];
  return [
    ...required.filter((key) => args[key] === undefined).map((key) => `${key} is required`),
    ...Object.keys(args)
      .filter((key) => !(key in properties))
      .map((key) => `${key} is not an argument of this tool`),
  ];
}

/** Calls a sandbox tool's control route through the client and resolves to its result. */
export async function callSandboxTool(
  client: ExchangeClient,
  tool: SandboxTool,
  args: Record<string, unknown>,
  maxBytes: number,
): Promise<ToolResult> {
  const problems = argumentProblems(tool, args);
  if (problems.length > 0) return errorResult(`${tool.name} was not sent: ${problems.join("; ")}`);
  const { method, path, query, body } = tool.request(args);
  try {
    const data = await client.request(method, path, { query, body, maxRetries: 0 });
    const shaped = tool.shape ? tool.shape(data) : data;
    const structured = Array.isArray(shaped) ? { data: shaped } : (shaped as Record<string, unknown>);
    return resultOf(structured ?? {}, [], maxBytes);
  } catch (error) {
    return errorResult(`${tool.name} failed: ${(error as Error).message}`);
  }
}

/** Whether the client's base URL is a sandbox: it answers the control API's clock. */
export async function isSandbox(client: ExchangeClient): Promise<boolean> {
  try {
    await client.request("GET", "/_sandbox/clock", { maxRetries: 0, timeoutMs: 5000 });
    return true;
  } catch {
    return false;
  }
}
