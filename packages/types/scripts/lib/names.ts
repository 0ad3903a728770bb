// Naming shared by every generator, so the type aliases ("." entry) and the zod schemas ("./zod" entry) agree,
// and the bits of emitted source they all write (object keys, doc comments).
import { CATALOG_TYPE_NAMES } from "../catalog.ts";
import type { OpenApiSpec } from "@exchange-kit/spec-tools/spec";

/** The name of the union of every webhook event body (type alias `WebhookEvent`, zod `WebhookEventSchema`). */
export const WEBHOOK_UNION = "WebhookEvent";

/**
 * Names the "." entry declares besides the component aliases: openapi-typescript's interfaces, the generated
 * unions and the hand-written helpers of src/index.ts. A component whose alias would take one of them gets the
 * suffix `Base` (the spec's `WebhookEvent` envelope becomes `WebhookEventBase`, because `WebhookEvent` is the
 * union of the events).
 */
export const RESERVED_TYPE_NAMES: ReadonlySet<string> = new Set([
  "paths",
  "webhooks",
  "components",
  "operations",
  "$defs",
  WEBHOOK_UNION,
  "WebhookEventType",
  "WebhookEventOf",
  "Envelope",
  "ApiResponse",
  "OperationId",
  "OperationIndex",
  "OperationIndexEntry",
  "OperationRoute",
  "OperationRoutes",
  "IdempotencyClass",
  "OperationPath",
  "OperationMethod",
  "OperationTag",
  "OperationRequestBody",
  "OperationResponses",
  "OperationSuccessData",
  "OperationErrorBody",
  "OperationPathParams",
  "OperationQueryParams",
  "PathItemMethod",
  // The catalog's own types (scripts/catalog.ts), exported by name beside the aliases.
  ...CATALOG_TYPE_NAMES,
]);

const IDENT = /^[A-Za-z_$][\w$]*$/;

/** An object literal key for `name`: bare when it is an identifier, else a string literal. */
export function propertyKey(name: string): string {
  return IDENT.test(name) ? name : JSON.stringify(name);
}

/** A JSDoc block for `text` (empty when there is none), ending in a newline. */
export function docComment(text: string | undefined): string {
  if (!text) return "";
  const lines = text.trim().replace(/\*\//g, "*\\/").split("\n");
  return `/**\n${lines.map((l) => ` * ${l}`.trimEnd()).join("\n")}\n */\n`;
}

/** A TypeScript identifier for a component name: kept as written when it is one, else PascalCased. */
export function identifierFor(name: string): string {
  if (IDENT.test(name)) return name;
  const pascal = name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
  return /^[A-Za-z_$]/.test(pascal) ? pascal : `_${pascal}`;
}

/**
 * The alias of every component schema: Map(componentName -> alias), in document order. Throws when two
 * components would get the same alias.
 */
export function componentAliases(spec: OpenApiSpec): Map<string, string> {
  const aliases = new Map<string, string>();
  const taken = new Map<string, string>();
  for (const name of Object.keys(spec.components?.schemas ?? {})) {
    let alias = identifierFor(name);
    if (RESERVED_TYPE_NAMES.has(alias)) alias = `${alias}Base`;
    if (taken.has(alias) || RESERVED_TYPE_NAMES.has(alias)) {
      throw new Error(`Components "${taken.get(alias) ?? alias}" and "${name}" both map to the alias ${alias}`);
    }
    taken.set(alias, name);
    aliases.set(name, alias);
  }
  return aliases;
}

/** The zod schema name of a component alias. */
export function zodName(alias: string): string {
  return `${alias}Schema`;
}
