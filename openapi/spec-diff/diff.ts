// The spec diff: every difference between two bundled OpenAPI 3.1 documents that a client can notice, each
// classed breaking or not. Operations are matched by method and path; an operationId found under another path
// is a moved operation. Webhook bodies travel to the client, so they are compared like responses.
// The diff runs as named steps (steps/), in the order their changes are reported.
import { compareSchemas } from "./schema-diff.ts";
import { operationDeprecationStep } from "./steps/deprecation.ts";
import { operationIdStep } from "./steps/operation-id.ts";
import { matchOperations } from "./steps/operations.ts";
import { parametersStep } from "./steps/parameters.ts";
import { requestBodyStep } from "./steps/request-body.ts";
import { responsesStep } from "./steps/responses.ts";
import { operationSecurityStep, securitySchemesStep } from "./steps/security.ts";
import { serversStep } from "./steps/servers.ts";
import type { DiffContext, DocumentStep, OperationStep } from "./steps/step.ts";
import type { Change, JsonObject } from "./types.ts";

/** What is compared in each pair of operations, in order. */
const OPERATION_STEPS: readonly OperationStep[] = [
  operationIdStep,
  operationDeprecationStep,
  operationSecurityStep,
  parametersStep,
  requestBodyStep,
  responsesStep,
];

/** What is compared once the operations of both sections are. */
const DOCUMENT_STEPS: readonly DocumentStep[] = [securitySchemesStep, serversStep];

function contextOf(oldDoc: JsonObject, newDoc: JsonObject, changes: Change[]): DiffContext {
  // One set for the whole diff: a shared component is compared once per direction, whichever operation uses it.
  const seen = new Set<string>();
  const add = (change: Change) => changes.push(change);
  return {
    oldDoc,
    newDoc,
    add,
    compareSchemas: (direction, oldRaw, newRaw, at) =>
      compareSchemas(
        { oldDoc, newDoc, direction, seen, report: ({ at, ...rest }) => add({ ...rest, where: at }) },
        oldRaw,
        newRaw,
        at,
      ),
  };
}

/** Every difference between `oldDoc` and `newDoc`, breaking ones first. */
export function diffSpecs(oldDoc: JsonObject, newDoc: JsonObject): Change[] {
  const changes: Change[] = [];
  const ctx = contextOf(oldDoc, newDoc, changes);
  for (const section of ["paths", "webhooks"] as const) {
    for (const pair of matchOperations(ctx, section)) {
      for (const step of OPERATION_STEPS) step(ctx, pair);
    }
  }
  for (const step of DOCUMENT_STEPS) step(ctx);
  return [...changes.filter((c) => c.breaking), ...changes.filter((c) => !c.breaking)];
}
