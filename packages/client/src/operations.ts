import { generatedResources } from "./generated/resources/index.js";
import type { MethodFactory } from "./resource-types.js";
import { operationRoutes, type IdempotencyClass, type OperationRoute } from "./spec.js";

/** One operation of the spec, with the client group and method name derived from it. */
export interface OperationInfo {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly tag: string;
  /** Path parameter names in path order: the order of the positional arguments. */
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  readonly hasBody: boolean;
  /** The spec's x-idempotency: whether the client may repeat the operation after an uncertain failure. */
  readonly idempotency: IdempotencyClass;
  readonly group: string;
  readonly name: string;
}

/** operationId -> [group, method name], read off the generated groups (no second table in the bundle). */
function namesOf(): Map<string, readonly [string, string]> {
  const names = new Map<string, readonly [string, string]>();
  const groups = generatedResources(((operationId: string) => operationId) as unknown as MethodFactory);
  for (const [group, methods] of Object.entries(groups)) {
    for (const [name, operationId] of Object.entries(methods as Record<string, string>))
      names.set(operationId, [group, name]);
  }
  return names;
}

/**
 * Every operation in the spec with its derived group and method name.
 *
 * @example
 * listOperations().find((op) => op.operationId === "listBankAccounts"); // { group: "banks", name: "list", ... }
 */
export function listOperations(): OperationInfo[] {
  const names = namesOf();
  return Object.entries(operationRoutes as Record<string, OperationRoute>).map(
    ([operationId, [tag, path, method, pathParams, queryParams, hasBody, idempotency]]) => {
      const [group, name] = names.get(operationId)!;
      return {
        operationId,
        method: method.toUpperCase(),
        path,
        tag,
        pathParams,
        queryParams,
        hasBody,
        idempotency,
        group,
        name,
      };
    },
  );
}
