// The generated blocks of the client's README.md: the retry class of every operation, written between
// `<!-- generated:name -->` markers so that the hand-written text around them stays as it is.
import type { OpenApiSpec } from "@exchange-kit/spec-tools/spec";
import { clientOperations } from "./resources-gen.ts";

const MEANING: Readonly<Record<string, string>> = {
  safe: "repeated after any retryable failure",
  "safe-by-reference":
    "repeated after any retryable failure; a repeat that meets “reference already exists” resolves to the record found by it",
  "safe-delete":
    "repeated after any retryable failure; a repeat that meets not-found resolves to `{ deletedByEarlierAttempt: true }`",
  guarded: "repeated only after the history shows no order with its client_reference_id",
  unsafe: "repeated only when the request provably did not reach the service; else ExchangeAmbiguousResultError",
};

/** The rows of the idempotency table, in spec order. */
export function idempotencyTable(spec: OpenApiSpec): string {
  const rows = ["| method | operation | class | after an uncertain failure |", "| - | - | - | - |"];
  for (const op of clientOperations(spec)) {
    const cls = String(op.operation["x-idempotency"]);
    if (!Object.hasOwn(MEANING, cls)) throw new Error(`${op.operationId}: x-idempotency missing or unknown (${cls})`);
    rows.push(
      `| \`${op.group}.${op.name}\` | ${op.operationId} (${op.method.toUpperCase()} \`${op.path}\`) | **${cls}** | ${MEANING[cls]} |`,
    );
  }
  return rows.join("\n");
}

/** `text` with the block between `<!-- generated:name -->` and `<!-- /generated:name -->` replaced by `body`. */
export function replaceBlock(text: string, name: string, body: string): string {
  const start = `<!-- generated:${name} -->`;
  const end = `<!-- /generated:${name} -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README.md has no ${start} ... ${end} block`);
  return `${text.slice(0, from + start.length)}\n${body}\n${text.slice(to)}`;
}
