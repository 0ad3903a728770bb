// Live updates for an open dashboard: a server-sent event stream per page. Each kept batch of the request log
// and each committed write of a record or event of the session's organization marks the stream dirty; at most
// one `update` message per `coalesceMs` says what changed, and the page reloads what it shows.
import type { ServerResponse } from "node:http";
import type { RequestLog } from "../request-log/request-log.js";
import type { Store } from "../store/store.js";
import { SECURITY_HEADERS } from "./respond.js";

export interface LiveSources {
  store: Store;
  requestLog: RequestLog;
  /** Time between two messages at most (a burst of writes is one message). */
  coalesceMs: number;
}

/** Streams the organization's changes into `res` until the connection closes; answers the function that ends it. */
export function openStream(res: ServerResponse, org: string, sources: LiveSources): () => void {
  res.writeHead(200, { ...SECURITY_HEADERS, "Content-Type": "text/event-stream", Connection: "keep-alive" });
  res.write("retry: 1000\n\n");
  const kinds = new Set<string>();
  let requests = false;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    res.write(`event: update\ndata: ${JSON.stringify({ requests, kinds: [...kinds] })}\n\n`);
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
  return end;
}
