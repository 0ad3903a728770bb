// The shapes of the generated tables (src/generated/), shared by the generator's output and the server.

/** A JSON Schema object as the generator wrote it (the spec's, with components in `$defs`). */
export type JsonSchemaObject = { type: "object" } & Record<string, unknown>;

/** The spec's retry class of an operation (`x-idempotency`). */
export type IdempotencyClass = "safe" | "safe-by-reference" | "safe-delete" | "guarded" | "unsafe";

/** One operation of the spec as an MCP tool. */
export interface GeneratedTool {
  /** The operationId. */
  readonly name: string;
  /** The operation's summary. */
  readonly title: string;
  /** Summary, description, and the err_codes with what each asks of the caller. */
  readonly description: string;
  readonly method: string;
  readonly path: string;
  readonly tag: string;
  readonly idempotency: string;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  readonly hasBody: boolean;
  readonly errCodes: readonly string[];
  /** Path and query parameters by name, the body as `body`: the spec's schemas. */
  readonly inputSchema: JsonSchemaObject;
  /**
   * The input the sandbox's spec takes, where it differs from `inputSchema` (the members the sandbox requires, an
   * http:// loopback webhook URL): listed and checked instead when the base URL is a sandbox.
   */
  readonly sandboxInputSchema?: JsonSchemaObject;
  /** The answer's `data` (as `{ data }` when `wrapped`). */
  readonly outputSchema: JsonSchemaObject;
  /** True when `data` is not always an object, so results carry it as `{ data }`. */
  readonly wrapped: boolean;
}

/** A markdown resource: a guide or an operation's reference page. */
export interface DocResource {
  readonly uri: string;
  readonly name: string;
  readonly title: string;
  readonly text: string;
}
