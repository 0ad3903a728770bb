// The request body: one removed, or one that is new or became required, breaks requests. A webhook's body is what
// the client receives, so its schema is compared as a response.
import { deref, isObject } from "../json.ts";
import { jsonSchemaOf } from "../operations.ts";
import type { Json } from "../types.ts";
import type { DiffContext, OperationStep } from "./step.ts";

const isRequired = (body: Json | undefined) => isObject(body) && body.required === true;

/** Reports a body that appeared or disappeared; true when it did (nothing more to compare). */
function reportPresence(
  ctx: DiffContext,
  before: Json | undefined,
  after: Json | undefined,
  at: string,
  webhook: boolean,
) {
  if (before === undefined) {
    const required = isRequired(after);
    const rule = required ? "request-body-added-required" : "request-body-added-optional";
    ctx.add({ rule, breaking: required && !webhook, where: at, message: "body added" });
    return true;
  }
  if (after === undefined) {
    ctx.add({ rule: "request-body-removed", breaking: true, where: at, message: "body removed" });
    return true;
  }
  return false;
}

export const requestBodyStep: OperationStep = (ctx, { old, current, where, webhook }) => {
  const before = deref(ctx.oldDoc, old.operation.requestBody);
  const after = deref(ctx.newDoc, current.operation.requestBody);
  if (before === undefined && after === undefined) return;
  const at = `${where} ${webhook ? "body" : "request body"}`;
  if (reportPresence(ctx, before, after, at, webhook)) return;
  if (!webhook && isObject(before) && !isRequired(before) && isRequired(after)) {
    ctx.add({ rule: "request-body-became-required", breaking: true, where: at, message: "body now required" });
  }
  const schemaBefore = jsonSchemaOf(ctx.oldDoc, before);
  ctx.compareSchemas(webhook ? "response" : "request", schemaBefore, jsonSchemaOf(ctx.newDoc, after), `${at}:`);
};
