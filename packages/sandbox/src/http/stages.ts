// The stages the server declares for the features that plug into it: the fault stage (faults/request-faults.ts
// implements it) and the request's trace (tracing/tracing.ts's traceRequest). The composition root (sandbox.ts)
// hands them in; absent, requests go through untouched and untraced.
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import type { HandlerResult } from "../api/route.js";

/** What the fault stage knows of a request. */
export interface FaultTarget {
  method: string;
  path: string;
  /** Undefined for routes outside the spec (the control API, the bank link page): they never get a fault. */
  operationId: string | undefined;
}

/** A fault the fault stage chose for a request: the server names its kind (log line, trace, request log). */
export interface RequestFault {
  readonly kind: string;
}

/** The hook the server calls once a request is authenticated. */
export interface FaultStage<Fault extends RequestFault = RequestFault> {
  /** The fault for this authenticated request, if any: an armed rule of its organization first, else chaos. */
  take(org: string, target: FaultTarget): Promise<Fault | undefined>;
  /**
   * Lets the fault act: throws the error a failing kind answers, or runs the request (`run`) when the kind
   * performs it. Resolves to the result to answer, or undefined when no answer is to be sent (the connection
   * was dropped, or the client left during the wait).
   */
  apply(fault: Fault, res: ServerResponse, run: () => Promise<HandlerResult>): Promise<HandlerResult | undefined>;
}

/** The span of one request. */
export interface RequestTrace {
  /** Runs the handler with this request as the cause of what it emits. */
  dispatch<T>(work: () => T): T;
  /** The answer's status (undefined when none was sent), its err_code, and the fault the sandbox injected. */
  end(status: number | undefined, errCode: string | undefined, fault?: string): void;
}

/** Starts a request's span from its method, headers (the caller's trace context), route template and operation. */
export type TraceRequest = (
  method: string,
  headers: IncomingHttpHeaders,
  template: string,
  operationId: string | undefined,
) => RequestTrace;

/** No tracing: the handler runs as it is. */
export const NO_TRACE: TraceRequest = () => ({ dispatch: (work) => work(), end() {} });
