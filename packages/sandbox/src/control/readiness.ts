// GET /_sandbox/ready: what a load balancer or an orchestrator probes to know whether this replica can answer.
// Unsigned and without data (no organization, no record, no error detail: anyone who reaches the port may
// call it): 200 when the database answers a trivial query, 503 when it does not. The query is the store's own
// connection, so a replica whose database is down or unreachable answers 503 as soon as the connection fails
// (a refused connection at once; at most the connection's time limit otherwise), and a restart is seen on the
// next probe.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestTarget } from "../api/route.js";
import { send } from "../dashboard/respond.js";

export const READY_PATH = "/_sandbox/ready";

/** The answers: the API's envelope, without data. */
const READY = { status: true, message: "Ready", data: null };
const NOT_READY = {
  status: false,
  message: "Service unavailable: the sandbox's database does not answer",
  data: null,
  err_code: "SYS_SERVICE_UNAVAILABLE",
};

/**
 * The status and body of a probe, from whether the database answered.
 *
 * @example
 * readinessAnswer(true); // { status: 200, body: { status: true, message: "Ready", data: null } }
 */
export function readinessAnswer(databaseAnswers: boolean): { status: 200 | 503; body: object } {
  return databaseAnswers ? { status: 200, body: READY } : { status: 503, body: NOT_READY };
}

/** What the probe needs of the store: a statement on its own connection. */
export interface ProbedDatabase {
  statement(sql: string): { get(): Promise<unknown> };
}

/** Whether the database answers a trivial query, prepared per probe so a lost connection is not kept. */
async function answers(database: ProbedDatabase): Promise<boolean> {
  try {
    await database.statement("SELECT 1 AS ok").get();
    return true;
  } catch {
    // Why it failed is the operator's to see in the sandbox's own log when a request fails; a probe says nothing.
    return false;
  }
}

/**
 * The readiness endpoint as a server hook: true when it took the request (GET or HEAD /_sandbox/ready; any
 * other method there is answered 405).
 *
 * @example
 * const ready = readinessIntercept(store);
 */
export function readinessIntercept(
  database: ProbedDatabase,
): (req: IncomingMessage, res: ServerResponse, target: RequestTarget) => boolean {
  return (req, res, target) => {
    if (target.path !== READY_PATH) return false;
    req.resume();
    if (req.method !== "GET" && req.method !== "HEAD") {
      const body = { status: false, message: "Method not allowed: GET or HEAD", data: null, err_code: "UNKNOWN_ERROR" };
      send(res, 405, "application/json", JSON.stringify(body), { Allow: "GET, HEAD" });
      return true;
    }
    void answers(database).then((answered) => {
      const { status, body } = readinessAnswer(answered);
      send(res, status, "application/json", JSON.stringify(body));
    });
    return true;
  };
}
