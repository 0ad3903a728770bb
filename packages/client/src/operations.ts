import { operationNames } from "./generated/resources/index.js";
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

/**
 * Every operation in the spec with its derived group and method name.
 *
 * @example
 * listOperations().find((op) => op.operationId === "listBankAccounts"); // { group: "banks", name: "list", ... }
 */
export function listOperations(): OperationInfo[] {
  return Object.entries(operationRoutes as Record<string, OperationRoute>).map(
    ([operationId, [tag, path, method, pathParams, queryParams, hasBody, idempotency]]) => {
      const [group, name] = (operationNames as Record<string, readonly [string, string]>)[operationId]!;
      return { operationId, method: method.toUpperCase(), path, tag, pathParams, queryParams, hasBody, idempotency, group, name };
    },
  );
}
