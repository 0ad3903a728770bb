// exchange-kit logs: the sandbox's request log, one line per request (`--follow` streams new ones, like
// `stripe logs tail`), or with --events its webhook events and every delivery attempt.
import { ExchangeError, isExchangeApiError, type ExchangeClient } from "@exchange-kit/client";
import { baseUrl, requireCredentials, serviceClient } from "../credentials.js";
import { type Output, UsageError } from "../output.js";
import { unreachableMessage } from "../unreachable.js";
import type { Command, CommandContext } from "./command.js";
import { itemJson, itemLine, latestItems, newItems, nothingPrinted } from "./logs/event-lines.js";
import { followEvents, followRequests, readEvents, readRequests } from "./logs/follow.js";
import { awayReason, type Reconnecting } from "./logs/reconnect.js";
import { filterQuery, limitFlag, requestLine } from "./logs/request-lines.js";
import type { RequestLogEntry } from "@exchange-kit/sandbox";

/** --interval: milliseconds between two reads while following (50..60000, default 500). */
export function intervalFlag(value: string | boolean | undefined): number {
  if (value === undefined) return 500;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 50 || ms > 60_000) throw new UsageError("--interval must be 50 to 60000 ms");
  return ms;
}

/**
 * What following says when the sandbox goes away (once, with why) and when it is back, as lines or --json
 * objects; the follow interval is where its backoff starts.
 */
function reconnecting({ out, signal }: CommandContext, base: string, intervalMs: number): Reconnecting {
  return {
    intervalMs,
    signal,
    away: (error) =>
      out.result(
        { sandbox: "unreachable", url: base, reason: awayReason(error) },
        out.red(
          `… cannot reach the sandbox at ${base} (${awayReason(error)}); retrying until it is back (Ctrl-C to stop)`,
        ),
      ),
    back: () => out.result({ sandbox: "reconnected", url: base }, out.dim("… the sandbox is back; following on")),
  };
}

const printEntries = (out: Output) => (entries: RequestLogEntry[]) => {
  for (const entry of entries) out.result(entry, requestLine(entry));
};

async function requests(context: CommandContext, client: ExchangeClient, base: string): Promise<void> {
  const { values, out, signal } = context;
  const filters = filterQuery(values, Date.now());
  const intervalMs = intervalFlag(values.interval);
  if (values.follow !== true) {
    const page = await readRequests(client, { ...filters, order: "desc", limit: limitFlag(values.limit) }, signal);
    printEntries(out)(page.results.reverse());
    return;
  }
  // From now on; with --since, from the oldest entry kept (the filter keeps those since then).
  const head = await readRequests(client, { order: "desc", limit: 1 }, signal);
  const cursor = filters.since ? Math.max(0, head.oldest_seq - 1) : head.latest_seq;
  out.line(out.dim(`following the request log (Ctrl-C to stop)`));
  await followRequests(
    client,
    filters,
    { cursor, ...reconnecting(context, base, intervalMs) },
    {
      entries: printEntries(out),
      dropped: (count) =>
        out.result(
          { dropped: count },
          out.red(`… ${count} request(s) were dropped from the log before they were read (the log's maxEntries)`),
        ),
      startedOver: () =>
        out.result(
          { sandbox: "log_started_over", url: base },
          out.dim("… the request log started over (a sandbox without --db restarted); following from its first entry"),
        ),
    },
  );
}

async function events(context: CommandContext, client: ExchangeClient, base: string): Promise<void> {
  const { values, out, signal } = context;
  const printed = nothingPrinted();
  const print = (items: ReturnType<typeof newItems>) => {
    for (const item of items) out.result(itemJson(item), itemLine(item));
  };
  // Flags first: a bad value is a usage error before anything is read.
  const limit = values.limit === undefined ? undefined : limitFlag(values.limit);
  const intervalMs = intervalFlag(values.interval);
  const all = await readEvents(client, signal);
  const first = limit === undefined ? newItems(all, printed) : latestItems(all, printed, limit);
  if (values.follow !== true) return print(first);
  out.line(out.dim(`following webhook events and delivery attempts (Ctrl-C to stop)`));
  await followEvents(client, reconnecting(context, base, intervalMs), (events) => print(newItems(events, printed)));
}

/** An error of the sandbox call as the CLI reports it (exit 1); anything else is rethrown. */
function reportFailure(error: unknown, base: string, out: Output): number {
  if (!(error instanceof ExchangeError)) throw error;
  const unreachable = unreachableMessage(error, base);
  if (unreachable) out.error("SANDBOX_UNREACHABLE", unreachable);
  else if (isExchangeApiError(error)) out.error(error.errCode, `${error.status} ${error.errCode}: ${error.message}`);
  else out.error(error.name, error.message);
  return 1;
}

export const logs: Command = {
  usage: `exchange-kit logs [--follow] [--status 4xx] [--err-code CODE] [--operation-id ID] [--since 10m] [--json]
exchange-kit logs --events [--follow] [--json]
  one line per request: 12:01:02 POST createCustomer 400 USR_DUPLICATE_CONTACT 4 ms
  --follow             stream new requests (or events and attempts) as they come, until Ctrl-C; while the
                       sandbox is away it says so once, retries (from --interval, doubling, at most 5 s) and
                       goes on from where it stopped
  --limit N            without --follow, how many of the latest requests (default 20, at most 1000); with
                       --events, how many of the latest events (default: all), before following if --follow
  --status S           an exact status (404) or a class (4xx)
  --err-code CODE, --operation-id ID   exact filters
  --since T            an ISO time or a duration back from now (30s, 10m, 2h, 1d)
  --events             webhook events and every delivery attempt (answer code, latency, next retry)
  --interval MS        time between two reads while following, and the first retry's wait (default 500)
  --json               one JSON object per request (the log's entry, bodies included), event or attempt
  --base-url URL       the sandbox (default: EXCHANGE_BASE_URL, then http://127.0.0.1:4020)
  --api-key K --api-secret S   credentials (default: EXCHANGE_API_KEY, EXCHANGE_API_SECRET)`,
  options: {
    follow: { type: "boolean" },
    events: { type: "boolean" },
    limit: { type: "string" },
    status: { type: "string" },
    "err-code": { type: "string" },
    "operation-id": { type: "string" },
    since: { type: "string" },
    interval: { type: "string" },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    "api-secret": { type: "string" },
  },
  async run(context) {
    const { values, env, out } = context;
    const credentials = requireCredentials(values, env);
    const base = baseUrl(values["base-url"] as string | undefined, env);
    const client = serviceClient(base, credentials);
    try {
      await (values.events === true ? events(context, client, base) : requests(context, client, base));
      return 0;
    } catch (error) {
      if (context.signal.aborted) return 0;
      return reportFailure(error, base, out);
    }
  },
};
