// Responses, matched by status: a removed success response breaks; a removed error response or a new one does
// not. A kept response's headers are compared too (response-headers.ts). A webhook's answer is not read by anyone the spec describes, so webhooks have none to compare.
import { isObject } from "../json.ts";
import { jsonSchemaOf } from "../operations.ts";
import { compareResponseHeaders } from "./response-headers.ts";
import type { OperationStep } from "./step.ts";

export const responsesStep: OperationStep = (ctx, { old, current, where, webhook }) => {
  if (webhook) return;
  const before = isObject(old.operation.responses) ? old.operation.responses : {};
  const after = isObject(current.operation.responses) ? current.operation.responses : {};
  for (const status of Object.keys(before)) {
    const at = `${where} response ${status}`;
    if (status in after) {
      const schemaBefore = jsonSchemaOf(ctx.oldDoc, before[status]);
      ctx.compareSchemas("response", schemaBefore, jsonSchemaOf(ctx.newDoc, after[status]), `${at}:`);
      compareResponseHeaders(ctx, before[status], after[status], at);
    } else {
      ctx.add({ rule: "response-removed", breaking: status.startsWith("2"), where: at, message: "response removed" });
    }
  }
  for (const status of Object.keys(after)) {
    if (status in before) continue;
    ctx.add({
      rule: "response-added",
      breaking: false,
      where: `${where} response ${status}`,
      message: "response added",
    });
  }
};
