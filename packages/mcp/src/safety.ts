// What a tool may do, decided from the spec's facts about its operation (method, tag, retry class): the gate that
// lists it and the MCP annotations it carries. Pure functions, tested as a table (test/safety.test.ts).
import type { IdempotencyClass } from "./tool-types.js";

/**
 * `read`: changes nothing (GET). `quote`: a quotation, which fixes a rate and expires unused. `write`: creates,
 * changes or deletes a record (customers, KYC, bank accounts, wallets, EDD, the webhook URL). `order`: an initiate,
 * which moves money.
 */
export type ToolKind = "read" | "quote" | "write" | "order";

/** The server options that list a kind of tool; reads and quotes need none. */
export type Gate = "allowWrites" | "allowOrders";

/** The facts of an operation the decisions read. */
export interface OperationFacts {
  readonly method: string;
  readonly tag: string;
  readonly idempotency: IdempotencyClass | string;
}

/** MCP's tool annotations (the hints a client shows or acts on). */
export interface SafetyAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

// Tags whose POSTs that are safe to repeat only price an order: the quotations.
const ORDER_TAGS: ReadonlySet<string> = new Set(["Payins", "Payouts"]);

/**
 * The kind of an operation: GET reads; the guarded class is the initiates (orders); a safe POST of an order tag is
 * a quotation; anything else writes a record.
 *
 * @example
 * toolKind({ method: "POST", tag: "Payins", idempotency: "guarded" }); // "order"
 */
export function toolKind(facts: OperationFacts): ToolKind {
  if (facts.method === "GET") return "read";
  if (facts.idempotency === "guarded") return "order";
  if (facts.idempotency === "safe" && ORDER_TAGS.has(facts.tag)) return "quote";
  return "write";
}

/**
 * The gate of a kind: writes need `allowWrites`, orders `allowOrders`; reads and quotes are always on.
 *
 * @example
 * gateOf("order"); // "allowOrders"
 */
export function gateOf(kind: ToolKind): Gate | undefined {
  return kind === "write" ? "allowWrites" : kind === "order" ? "allowOrders" : undefined;
}

/** The command-line flag of a gate, as refusals name it. */
export function flagOf(gate: Gate): string {
  return gate === "allowWrites" ? "--allow-writes" : "--allow-orders";
}

/**
 * The annotations of an operation's tool. Destructive: a delete, a PATCH (it replaces what was there) and an order
 * (money moves and cannot be called back). Idempotent: every class the client may repeat (all but `unsafe` and the
 * initiates). Open world: only orders reach outside the service (banks, chains).
 *
 * @example
 * annotationsOf({ method: "DELETE", tag: "Bank accounts", idempotency: "safe-delete" }).destructiveHint; // true
 */
export function annotationsOf(facts: OperationFacts): SafetyAnnotations {
  const kind = toolKind(facts);
  return {
    readOnlyHint: kind === "read",
    destructiveHint: kind === "order" || facts.method === "DELETE" || facts.method === "PATCH",
    idempotentHint: kind !== "order" && facts.idempotency !== "unsafe",
    openWorldHint: kind === "order",
  };
}

/** What the server was allowed at start. */
export interface Allowances {
  readonly allowWrites?: boolean | undefined;
  readonly allowOrders?: boolean | undefined;
}

/**
 * The flag a call of this operation still needs, or undefined when it is allowed.
 *
 * @example
 * missingFlag({ method: "POST", tag: "Customers", idempotency: "safe-by-reference" }, {}); // "--allow-writes"
 */
export function missingFlag(facts: OperationFacts, allowed: Allowances): string | undefined {
  const gate = gateOf(toolKind(facts));
  return gate === undefined || allowed[gate] === true ? undefined : flagOf(gate);
}
