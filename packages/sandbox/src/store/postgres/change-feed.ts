// What other replicas changed, for this replica's live views (the dashboard's update stream). Each replica tells the
// others, on a channel of the database (NOTIFY), which kinds of record of which organization it committed, and
// hears theirs (LISTEN) on a connection of its own. Only kinds and organization IDs travel: never a record.
// Best effort: a change missed while the connection was down shows at the next reload of the page.
import { randomUUID } from "node:crypto";
import pg from "pg";

/** What a replica hears: a kind of record ("requests" for the request log) of an organization changed. */
export type RemoteChange = (kind: string, org: string) => void;

/** The channel of a sandbox schema: replicas of one sandbox share it; sandboxes in other schemas do not. */
export function changeChannelOf(schema: string): string {
  return `exchange_kit_changes:${schema}`;
}

/** One notification's text: the sender, then a line per change. */
export function encodeChanges(sender: string, changes: Iterable<string>): string {
  return [sender, ...changes].join("\n");
}

/**
 * How long changes only live views show (records, requests) gather before they are told: a page updates a few
 * milliseconds later, and a replica under load sends a notification per window, not one per request.
 */
export const LIVE_CHANGES_WINDOW_MS = 10;

/** NOTIFY carries at most 8000 bytes; a notification's text stays below, with room to spare. */
export const MAX_NOTIFICATION_BYTES = 7500;

/**
 * The notifications that tell `changes`: as few as fit, each one's text (encodeChanges) within `maxBytes`.
 *
 * @example
 * changeNotifications("r1", ["customer org-1", "requests org-1"]); // ["r1\ncustomer org-1\nrequests org-1"]
 */
export function changeNotifications(
  sender: string,
  changes: Iterable<string>,
  maxBytes = MAX_NOTIFICATION_BYTES,
): string[] {
  const messages: string[] = [];
  let lines: string[] = [];
  let bytes = Buffer.byteLength(sender);
  for (const change of changes) {
    const size = Buffer.byteLength(change) + 1;
    if (lines.length > 0 && bytes + size > maxBytes) {
      messages.push(encodeChanges(sender, lines));
      lines = [];
      bytes = Buffer.byteLength(sender);
    }
    lines.push(change);
    bytes += size;
  }
  if (lines.length > 0) messages.push(encodeChanges(sender, lines));
  return messages;
}

/** The changes of a notification another replica sent; none for one of this replica's own. */
export function decodeChanges(self: string, payload: string): Array<{ kind: string; org: string }> {
  const [sender, ...lines] = payload.split("\n");
  if (sender === self) return [];
  return lines.flatMap((line) => {
    const at = line.indexOf(" ");
    return at > 0 ? [{ kind: line.slice(0, at), org: line.slice(at + 1) }] : [];
  });
}

/**
 * @example
 * const feed = new ChangeFeed(url, changeChannelOf("public"), (kind, org) => store.announce(kind, org));
 * feed.start();
 * store.onChange((kind, org) => feed.publish(kind, org));
 */
export class ChangeFeed {
  private readonly self = randomUUID();
  private readonly pending = new Set<string>();
  private client: pg.Client | undefined;
  private flushing: NodeJS.Timeout | undefined;
  private turn: Promise<unknown> = Promise.resolve();
  /** A notification is on its way: what changes meanwhile waits for it and goes in the next one. */
  private sending = false;
  private hearing = false;
  private closed = false;
  private starting: Promise<void> | undefined;

  /**
   * @param onHearing told true once the feed listens (again), false when it stops: while it does not listen, changes
   *   of other replicas go unheard (what the replica remembers of them must not be used).
   */
  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly onRemote: RemoteChange,
    private readonly onHearing: (hearing: boolean) => void = () => {},
  ) {}

  /**
   * Connects and listens, in the background (a start does not wait for it); a database that cannot be reached
   * leaves the feed silent (live views reload instead).
   */
  start(): void {
    this.starting ??= this.listen();
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: "exchange-kit-sandbox" });
    client.on("error", () => {
      if (this.client !== client) return;
      // Lost (a server restart): the next change published connects again.
      this.client = undefined;
      this.starting = undefined;
      this.onHearing(false);
    });
    client.on("notification", (message) => this.hear(message.payload ?? ""));
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel.replaceAll('"', '""')}"`);
      if (this.closed) throw new Error("closed");
      this.client = client;
      this.onHearing(true);
    } catch {
      client.end().catch(() => {});
      // Tried again by a change published a second from now, not by every change while the server is down.
      setTimeout(() => {
        this.starting = undefined;
      }, 1000).unref();
    }
  }

  /**
   * Tells the other replicas, with the other changes of the next LIVE_CHANGES_WINDOW_MS (and of the time the
   * notification before it was on its way), in one notification.
   * `now`: sent at once (before the request that made the change is answered), for state other replicas cache, so
   * that the client's next request, to whichever replica, finds it changed.
   */
  publish(kind: string, org: string, now = false): void {
    if (this.hearing || this.closed) return;
    if (!this.client) {
      this.start();
      return;
    }
    this.pending.add(`${kind} ${org}`);
    if (now) {
      if (this.flushing) clearTimeout(this.flushing);
      this.flush();
    } else this.flushing ??= setTimeout(() => this.flush(), LIVE_CHANGES_WINDOW_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.onHearing(false);
    if (this.flushing) clearTimeout(this.flushing);
    await this.starting;
    await this.turn;
    // Not awaited: nothing is left to say on it, and a stop need not wait for the server's goodbye.
    this.client?.end().catch(() => {});
    this.client = undefined;
  }

  private flush(): void {
    this.flushing = undefined;
    const client = this.client;
    if (!client) this.pending.clear();
    if (!client || this.sending || this.pending.size === 0) return;
    const messages = changeNotifications(this.self, this.pending);
    this.pending.clear();
    this.sending = true;
    this.turn = (async () => {
      for (const payload of messages) await client.query("SELECT pg_notify($1, $2)", [this.channel, payload]);
    })()
      .catch(() => {})
      .finally(() => {
        this.sending = false;
        if (this.pending.size > 0) this.flush();
      });
  }

  private hear(payload: string): void {
    // What listeners do with a remote change is not published again (that would echo between replicas).
    this.hearing = true;
    try {
      for (const { kind, org } of decodeChanges(this.self, payload)) this.onRemote(kind, org);
    } finally {
      this.hearing = false;
    }
  }
}
