// GET /_sandbox/requests: the caller's organization's request log, signed like every control call.
import type { HandlerResult } from "../api/route.js";
import type { SandboxContext, SandboxHandler } from "../api/validated-request.js";
import { readLogFilter } from "./log-filter.js";
import type { RequestLog } from "./request-log.js";

/**
 * The handler of GET /_sandbox/requests?status=&err_code=&operation_id=&since=&until=&after=&before=&order=&limit= over
 * this log: newest first by default; `order=asc&after=<seq>` reads on from a cursor (what following does).
 */
export function listRequests(log: RequestLog): SandboxHandler {
  return async (ctx: SandboxContext): Promise<HandlerResult> => {
    const page = await log.query(ctx.org.id, readLogFilter(ctx.query));
    return { message: "Requests fetched successfully", data: { count: page.results.length, ...page } };
  };
}
