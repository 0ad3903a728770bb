import { groupOfTag, methodNameOf } from "./method-names.js";
import { operationIndex } from "./spec.js";

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
  readonly group: string;
  readonly name: string;
}

interface IndexEntry {
  readonly method: string;
  readonly path: string;
  readonly tag: string;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  readonly hasBody: boolean;
}

/**
 * Every operation in the spec with its derived group and method name.
 *
 * @example
 * listOperations().find((op) => op.operationId === "listBankAccounts"); // { group: "banks", name: "list", ... }
 */
export function listOperations(): OperationInfo[] {
  return Object.entries(operationIndex as Record<string, IndexEntry>).map(([operationId, entry]) => {
    const group = groupOfTag(entry.tag);
    return {
      operationId,
      method: entry.method.toUpperCase(),
      path: entry.path,
      tag: entry.tag,
      pathParams: entry.pathParams,
      queryParams: entry.queryParams,
      hasBody: entry.hasBody,
      group,
      name: methodNameOf(operationId, group),
    };
  });
}
