// One call of an operation tool: the arguments checked against the spec (nothing sent when they are wrong), the
// call made through @exchange-kit/client (signing, retries and the ambiguity rules are the client's), and the
// answer or the error turned into a tool result.
import {
  ExchangeAmbiguousResultError,
  ExchangeApiError,
  ExchangeError,
  ExchangeOrderNotFoundError,
  ExchangeValidationError,
  type ExchangeClient,
  listOperations,
} from "@exchange-kit/client";
import { errorResult, fitList, movedNote, pagingNote, resultOf, type ToolResult } from "./results.js";
import { toolKind } from "./safety.js";
import type { GeneratedTool } from "./tool-types.js";

type ClientMethod = (...args: unknown[]) => Promise<unknown>;

/** The tool named `client.<group>.<name>` (or its alias `history`), from the client's own operation list. */
function toolOfClientMethod(group: string, name: string): string | undefined {
  const wanted = name === "history" ? "listHistory" : name;
  return listOperations().find((op) => op.group === group && op.name === wanted)?.operationId;
}

/**
 * The client's advice of what settles an ambiguous call, with its method names (`client.banks.list`) given as the
 * tools that read it (`listBankAccounts`).
 *
 * @example
 * settleAdvice("the customer's bank accounts (client.banks.list)"); // "... (the tool listBankAccounts)"
 */
export function settleAdvice(check: string): string {
  return check.replace(/client\.(\w+)\.(\w+)/g, (whole, group: string, name: string) => {
    const tool = toolOfClientMethod(group, name);
    return tool === undefined ? whole : `the tool ${tool}`;
  });
}

/** The argument names a tool accepts: its parameters and, with a body, `body`. */
function unknownArguments(tool: GeneratedTool, args: Record<string, unknown>): string[] {
  const known = new Set([...tool.pathParams, ...tool.queryParams, ...(tool.hasBody ? ["body"] : [])]);
  return Object.keys(args).filter((key) => !known.has(key));
}

type BodySchemas = Record<string, { requestBody?: { safeParse(v: unknown): unknown } }>;
let bodySchemas: Promise<BodySchemas> | undefined;

// The spec's zod schemas load with the first call that sends a body, not at start: zod is most of a cold start.
const loadBodySchemas = () =>
  (bodySchemas ??= import("@exchange-kit/types/zod").then((zod) => zod.operationSchemas as BodySchemas));

/**
 * The arguments' faults the spec states, by field; empty when none. Nothing is sent with any. On a sandbox
 * (`sandbox` true) a body is held to the sandbox's spec where it takes other input than the service's.
 */
export async function argumentErrors(
  tool: GeneratedTool,
  args: Record<string, unknown>,
  sandbox = false,
): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  for (const key of unknownArguments(tool, args)) errors[key] = ["is not an argument of this tool"];
  for (const key of (tool.inputSchema.required as string[] | undefined) ?? [])
    if (args[key] === undefined) (errors[key] ??= []).push("is required");
  if (args.body === undefined) return errors;
  const found =
    sandbox && tool.sandboxInputSchema ? await sandboxBodyErrors(tool, args.body) : await bodyErrors(tool, args.body);
  for (const [field, messages] of found) (errors[field] ??= []).push(...messages);
  return errors;
}

/** The body's faults under the published spec (the generated zod schema of the operation's request body). */
async function bodyErrors(tool: GeneratedTool, body: unknown): Promise<Array<[string, string[]]>> {
  const bodySchema = (await loadBodySchemas())[tool.name]?.requestBody;
  if (bodySchema === undefined) return [];
  const parsed = bodySchema.safeParse(body) as { success: boolean; error?: { issues: ZodIssue[] } };
  return (parsed.error?.issues ?? []).map((issue) => [issuePath(issue), [issue.message]]);
}

/** The body's faults under the sandbox's spec (its JSON Schema, checked by Ajv, loaded on first use). */
async function sandboxBodyErrors(tool: GeneratedTool, body: unknown): Promise<Array<[string, string[]]>> {
  const { sandboxBodyValidator } = await import("./sandbox-validation.js");
  return sandboxBodyValidator(tool)(body);
}

interface ZodIssue {
  path: PropertyKey[];
  message: string;
}

const issuePath = (issue: ZodIssue) => ["body", ...issue.path.map(String)].join(".");

/** The client method of a tool, and its positional arguments: path values, the body, then the query as options. */
function invocation(client: ExchangeClient, tool: GeneratedTool, args: Record<string, unknown>) {
  const op = listOperations().find((o) => o.operationId === tool.name)!;
  const method = (client as unknown as Record<string, Record<string, ClientMethod>>)[op.group]![op.name]!;
  const query = Object.fromEntries(tool.queryParams.filter((q) => args[q] !== undefined).map((q) => [q, args[q]]));
  const positional = [...tool.pathParams.map((p) => args[p]), ...(tool.hasBody ? [args.body ?? {}] : [])];
  return { call: () => method(...positional, query) };
}

/** An error of the client as a tool error: what happened and what to do, never a credential or a signature. */
export function clientErrorResult(tool: GeneratedTool, error: unknown): ToolResult {
  if (error instanceof ExchangeAmbiguousResultError)
    return errorResult(
      `${tool.name} may have happened: ${error.cause.message}. It was not repeated (not safe to repeat). ` +
        `Before calling it again, check ${settleAdvice(error.check)}.`,
      { ambiguous: true, attempts: error.attempts },
    );
  if (error instanceof ExchangeOrderNotFoundError)
    return errorResult(`${error.message}. Do not call ${tool.name} again for this order.`, { orderCreated: true });
  if (error instanceof ExchangeApiError)
    return errorResult(`${tool.name} failed: ${error.message}`, {
      status: error.status,
      err_code: error.errCode ?? null,
      action: error.action,
      field_errors: error.fieldErrors,
    });
  if (error instanceof ExchangeValidationError)
    return errorResult(`${tool.name} was not sent: ${error.message}`, { field_errors: error.fieldErrors });
  if (error instanceof ExchangeError) return errorResult(`${tool.name} failed: ${error.message}`);
  throw error;
}

/** The result of an answered call: structured `data`, the paging note, what moved, where the answer was cut. */
function answerResult(
  tool: GeneratedTool,
  answer: unknown,
  args: Record<string, unknown>,
  maxBytes: number,
): ToolResult {
  const notes: string[] = [];
  let data = answer;
  if (toolKind(tool) === "order") {
    const order = answer as { raw?: unknown };
    notes.push(movedNote(tool.tag === "Payins" ? "payin" : "payout", order));
    data = order.raw;
  }
  const paging = pagingNote(tool.name, data, args);
  if (paging !== undefined) notes.push(paging);
  const fitted = fitList(data, maxBytes);
  if (fitted.omitted > 0)
    notes.push(
      `cut: the last ${fitted.omitted} record(s) of this page are left out to stay under ${maxBytes} bytes; ask for a smaller per_page to read them`,
    );
  const structured = tool.wrapped ? { data: fitted.data } : (fitted.data as Record<string, unknown>);
  return resultOf(structured, notes, maxBytes);
}

/**
 * Calls the tool's operation with `args` and resolves to its result; an argument error, an answered error and an
 * ambiguous outcome are tool errors. A call the client refuses to repeat is not repeated here either.
 */
export async function callOperation(
  client: ExchangeClient,
  tool: GeneratedTool,
  args: Record<string, unknown>,
  maxBytes: number,
  sandbox = false,
): Promise<ToolResult> {
  const errors = await argumentErrors(tool, args, sandbox);
  if (Object.keys(errors).length > 0)
    return errorResult(`${tool.name} was not sent: its arguments do not match the spec`, { field_errors: errors });
  try {
    const answer = await invocation(client, tool, args).call();
    return answerResult(tool, answer, args, maxBytes);
  } catch (error) {
    return clientErrorResult(tool, error);
  }
}
