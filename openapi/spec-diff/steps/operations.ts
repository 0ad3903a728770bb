// Operations (and webhooks) removed, added or moved: matched by method and path; an operationId found under another
// path, whose own label is not taken, is a moved operation, compared with the one it was.
import { operationsOf, type Operation, type Section } from "../operations.ts";
import type { DiffContext, OperationPair } from "./step.ts";

type Operations = Map<string, Operation>;

const byOperationId = (ops: Operations) =>
  new Map([...ops.values()].filter((o) => o.operationId).map((o) => [o.operationId, o]));

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
    const current = news.get(label) ?? movedTo(old, newById, olds);
    if (current === undefined) {
      const rule = webhook ? "webhook-removed" : "operation-removed";
      ctx.add({ rule, breaking: true, where: label, message: `${old.operationId ?? "operation"} removed` });
      continue;
    }
    if (current.label !== label) {
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
    if (olds.has(label) || movedTo(current, oldById, news)) continue;
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
