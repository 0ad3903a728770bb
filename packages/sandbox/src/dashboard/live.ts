// Live updates for an open dashboard: a server-sent event stream per page. Each kept batch of the request log
// and each committed write of a record or event of the session's organization marks the stream dirty; at most
// one `update` message per `coalesceMs` says what changed, and the page reloads what it shows. Every stream
// carries an event id, so a browser that lost it (a restart, a replica replaced behind a balancer) reconnects
// with Last-Event-ID; what changed while it was away is unknown, so a resumed stream says "reload" at once.
import type { ServerResponse } from "node:http";
import type { Store } from "../store/store.js";
import type { DashboardRequestLog } from "./request-log-port.js";
import { SECURITY_HEADERS } from "./respond.js";

export interface LiveSources {
  store: Store;
  requestLog: DashboardRequestLog;
  /** Time between two messages at most (a burst of writes is one message). */
  coalesceMs: number;
}

/**
 * Whether a stream opened with this Last-Event-ID header resumes one the browser had (so it may have missed
 * updates while away).
 *
 * @example
 * isResumedStream(undefined); // false: a first connection
 * isResumedStream("3"); // true
 */
export function isResumedStream(lastEventId: string | string[] | undefined): boolean {
  return typeof lastEventId === "string" && lastEventId !== "";
}

/**
 * Streams the organization's changes into `res` until the connection closes; answers the function that ends it.
 * A `resumed` stream (isResumedStream) starts with an update, so the page reloads what it missed.
 */
export function openStream(res: ServerResponse, org: string, sources: LiveSources, resumed = false): () => void {
  // X-Accel-Buffering: a balancer such as nginx passes each message on at once instead of buffering the stream.
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    "Content-Type": "text/event-stream",
    Connection: "keep-alive",
    "X-Accel-Buffering": "no",
  });
  // The first id makes the browser send Last-Event-ID when it reconnects, even if no update came.
  res.write("id: 0\nretry: 1000\n\n");
  const kinds = new Set<string>();
  let requests = resumed;
  let timer: NodeJS.Timeout | undefined;
  let sent = 0;
  const flush = () => {
    timer = undefined;
    res.write(`event: update\nid: ${++sent}\ndata: ${JSON.stringify({ requests, kinds: [...kinds] })}\n\n`);
    kinds.clear();
    requests = false;
  };
  const mark = () => {
    timer ??= setTimeout(flush, sources.coalesceMs);
  };
  const stopLog = sources.requestLog.subscribe((from) => {
    if (from !== org) return;
    requests = true;
    mark();
  });
  const stopStore = sources.store.onChange((kind, from) => {
    if (from !== org) return;
    kinds.add(kind);
    mark();
  });
  // A comment now and then keeps proxies and idle timers from closing a quiet stream.
  const heartbeat = setInterval(() => res.write(": keep-alive\n\n"), 15_000);
  const end = () => {
    stopLog();
    stopStore();
    clearInterval(heartbeat);
    if (timer) clearTimeout(timer);
    res.end();
  };
  res.on("close", end);
  if (resumed) mark();
  return end;
}
