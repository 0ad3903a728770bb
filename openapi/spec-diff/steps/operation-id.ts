// A renamed operationId breaks: generated names and client methods follow it.
import type { OperationStep } from "./step.ts";

export const operationIdStep: OperationStep = (ctx, { old, current, where }) => {
  if (old.operationId === current.operationId) return;
  ctx.add({
    rule: "operation-id-changed",
    breaking: true,
    where,
    message: `operationId ${old.operationId} -> ${current.operationId} (generated names and client methods follow it)`,
  });
};
