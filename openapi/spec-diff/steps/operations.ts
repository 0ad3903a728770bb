// Operations (and webhooks) removed, added or moved: matched by method and path; then by method and the path's shape
// (a path whose parameters were only renamed, `/bank/{customer_id}` -> `/bank/{customerId}`, is the same operation:
// parametersStep reports the rename); an operationId found under another path, whose own label is not taken, is a
// moved operation, compared with the one it was.
import { operationsOf, type Operation, type Section } from "../operations.ts";
import type { DiffContext, OperationPair } from "./step.ts";

type Operations = Map<string, Operation>;

const byOperationId = (ops: Operations) =>
  new Map([...ops.values()].filter((o) => o.operationId).map((o) => [o.operationId, o]));

/** A path with its parameters' names left out: `/bank/{}/{}`. */
export const pathShape = (path: string) => path.replace(/\{[^}/]*\}/g, "{}");

/** The operation of another document with this one's method and path shape and a label of its own, if any. */
function renamedIn(op: Operation, others: Operations, labels: Operations): Operation | undefined {
  for (const other of others.values()) {
    const same = other.method === op.method && other.path !== op.path && pathShape(other.path) === pathShape(op.path);
    if (same && !labels.has(other.label)) return other;
  }
  return undefined;
}

/** The operation another document has under this one's operationId and a label of its own, if any. */
function movedTo(op: Operation, others: Map<string | undefined, Operation>, labels: Operations) {
  const moved = op.operationId ? others.get(op.operationId) : undefined;
  return moved && !labels.has(moved.label) ? moved : undefined;
}

function pairOld(ctx: DiffContext, section: Section, olds: Operations, news: Operations): OperationPair[] {
  const webhook = section === "webhooks";
  const newById = byOperationId(news);
  const pairs: OperationPair[] = [];
  for (const [label, old] of olds) {
    const current = news.get(label) ?? renamedIn(old, news, olds) ?? movedTo(old, newById, olds);
    if (current === undefined) {
      const rule = webhook ? "webhook-removed" : "operation-removed";
      ctx.add({ rule, breaking: true, where: label, message: `${old.operationId ?? "operation"} removed` });
      continue;
    }
    if (pathShape(current.path) !== pathShape(old.path)) {
      const message = `${old.operationId} moved to ${current.label}`;
      ctx.add({ rule: "path-changed", breaking: true, where: old.label, message });
    }
    pairs.push({ old, current, where: current.label, webhook });
  }
  return pairs;
}

function reportAdded(ctx: DiffContext, section: Section, olds: Operations, news: Operations): void {
  const oldById = byOperationId(olds);
  for (const [label, current] of news) {
    if (olds.has(label) || renamedIn(current, olds, news) || movedTo(current, oldById, news)) continue;
    ctx.add({
      rule: section === "webhooks" ? "webhook-added" : "operation-added",
      breaking: false,
      where: label,
      message: `${current.operationId ?? "operation"} added`,
    });
  }
}

/** Reports the operations of a section removed, moved and added; returns the pairs to compare. */
export function matchOperations(ctx: DiffContext, section: Section): OperationPair[] {
  const olds = operationsOf(ctx.oldDoc, section);
  const news = operationsOf(ctx.newDoc, section);
  const pairs = pairOld(ctx, section, olds, news);
  reportAdded(ctx, section, olds, news);
  return pairs;
}
