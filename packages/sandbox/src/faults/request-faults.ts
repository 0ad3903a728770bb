// The fault stage of the request pipeline: once a request is authenticated (its organization known), the
// organization's armed rules (then chaos mode) may pick a fault for it, and the server lets the fault answer.
// Failing kinds answer their error and never reach the handler; DELAY waits, then runs the request; RESET drops
// the connection unanswered; DROP_AFTER_COMMIT runs the request (committed, events emitted) and then drops the
// connection, so the client cannot tell whether it happened.
import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { ApiError } from "../domain/api-error.js";
import type { HandlerResult } from "../api/route.js";
import type { FaultStage, FaultTarget } from "../http/stages.js";
import type { Chaos } from "./chaos.js";
import { failingAnswer, isFailingFault, type RequestFaultKind } from "./fault-kinds.js";
import type { FaultPlan } from "./fault-plan.js";
import type { AppliedFault, FaultRuleRow } from "./fault-records.js";

function fromRule(rule: FaultRuleRow): AppliedFault {
  return {
    kind: rule.fault as RequestFaultKind,
    source: "plan",
    ruleId: rule.id,
    delayMs: rule.delay_ms ?? 0,
    ...(rule.retry_after === undefined ? {} : { retryAfter: rule.retry_after }),
  };
}

/** True once the client's connection is gone: a request whose client left is not run. */
function clientGone(res: ServerResponse): boolean {
  return res.socket?.destroyed !== false;
}

/** Runs the request to its commit, then drops the connection without a byte of answer. */
async function runThenDrop(res: ServerResponse, run: () => Promise<HandlerResult>): Promise<void> {
  try {
    await run();
  } catch (error) {
    // A refused request (an error answer) committed nothing; its answer is lost all the same.
    if (!(error instanceof ApiError)) throw error;
  }
  res.socket?.destroy();
}

/**
 * The fault stage over the organization's fault plan and, when the sandbox runs in chaos mode, its chaos.
 *
 * @example
 * const stage = new RequestFaults(plan, new Chaos({ rate: 0.05, seed: 42 }));
 */
export class RequestFaults implements FaultStage<AppliedFault> {
  constructor(
    private readonly plan: FaultPlan,
    private readonly chaos?: Chaos,
  ) {}

  async take(org: string, target: FaultTarget): Promise<AppliedFault | undefined> {
    if (target.operationId === undefined) return undefined;
    // Drawn for every request, armed rule or not, so the chaos sequence depends on the requests alone.
    const chaos = this.chaos?.nextRequest();
    const details = { operation: target.operationId, method: target.method, path: target.path };
    const rule = await this.plan.take(org, "request", target.operationId, details);
    if (rule) return fromRule(rule);
    if (!chaos) return undefined;
    await this.plan.recordChaos(org, "request", chaos.kind, {
      ...details,
      ...(chaos.delayMs > 0 ? { delay_ms: chaos.delayMs } : {}),
    });
    return chaos;
  }

  async apply(
    fault: AppliedFault,
    res: ServerResponse,
    run: () => Promise<HandlerResult>,
  ): Promise<HandlerResult | undefined> {
    if (fault.delayMs > 0) {
      // Unreferenced: a wait never keeps a closed sandbox's process alive.
      await sleep(fault.delayMs, undefined, { ref: false });
      if (clientGone(res)) return undefined;
    }
    if (isFailingFault(fault.kind)) throw failingAnswer(fault.kind, fault.retryAfter);
    if (fault.kind === "DELAY") return await run();
    if (fault.kind === "RESET") res.socket?.resetAndDestroy();
    else await runThenDrop(res, run);
    return undefined;
  }
}
