// How the proxy reports what breaks the contract: one line per violation (the operation, the JSON pointer and the
// rule, never a value: bodies carry personal data and headers carry credentials), and optionally the same as JSON
// lines in a file, appended in the order they were found.
import { appendFile } from "node:fs/promises";
import type { ContractViolation } from "@exchange-kit/sandbox";

/** A violation with the exchange it was found in (the path without its query, which may carry data). */
export interface ViolationRecord extends Omit<ContractViolation, "operationId"> {
  /** null for a path the spec does not have. */
  operationId: string | null;
  method: string;
  path: string;
  /** The answer's status, for a violation of the answer. */
  status?: number;
}

/** The record of a violation found in an exchange of `method` on `url`. */
export function recordOf(violation: ContractViolation, method: string, url: string, status?: number): ViolationRecord {
  const path = url.split("?")[0] ?? "/";
  return {
    ...violation,
    operationId: violation.operationId ?? null,
    method,
    path,
    ...(status === undefined ? {} : { status }),
  };
}

/**
 * The printed line of a violation: where and which rule, never the value.
 *
 * @example
 * violationLine(record); // 'violation response getCustomer /body/data/id format: must match format "uuid"'
 */
export function violationLine(v: ViolationRecord): string {
  return `violation ${v.part} ${v.operationId ?? `(${v.method} ${v.path})`} ${v.pointer || "/"} ${v.rule}: ${v.message}`;
}

/** Appends records to a JSON-lines file in order; `flush` resolves once every one is written. */
export function violationFile(path: string | undefined) {
  let chain: Promise<void> = Promise.resolve();
  let failure: Error | undefined;
  return {
    write(record: ViolationRecord): void {
      if (path === undefined) return;
      const line = `${JSON.stringify({ at: new Date().toISOString(), ...record })}\n`;
      chain = chain.then(() => appendFile(path, line)).catch((error: Error) => void (failure ??= error));
    },
    async flush(): Promise<Error | undefined> {
      await chain;
      return failure;
    },
  };
}
