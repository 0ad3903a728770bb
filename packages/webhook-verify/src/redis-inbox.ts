import type { InboxStore, ParkedRecord } from "./inbox-store.js";
import { commandsOf, type RedisClientLike } from "./redis-client.js";
import { APPEND, DONE, LEAVE, PARK, PARKED, RENEW, REPLAY, RETRY, TAKE } from "./redis-inbox-scripts.js";
import { checkPersistence, type PersistenceWording, type RedisPersistence } from "./redis-persistence.js";
import { InboxStoreError, inboxBounded } from "./store-errors.js";

/** Where the Redis inbox keeps its keys, and how it checks the server's persistence. */
export interface RedisInboxOptions {
  /** Prefix of every key the inbox writes. Default "exchange-kit:inbox:". */
  prefix?: string;
  /** The stream's consumer group, shared by every receiver of this inbox. Default "receivers". */
  group?: string;
  /**
   * What to do when the server would lose accepted events on a restart (no AOF), checked with CONFIG GET
   * at creation: `warn` (default) logs it through `onWarning`; `require` refuses: `persistence` rejects and
   * every append fails (the adapters answer 503); `skip` does not check.
   */
  persistence?: "warn" | "require" | "skip";
  /** Where the persistence warning goes. Default console.warn. */
  onWarning?: (message: string) => void;
}

/** A Redis inbox store, with what its persistence check found. */
export interface RedisInboxStore extends InboxStore {
  /** The persistence check's result; rejects with an InboxStoreError when `persistence: "require"` is not met. */
  readonly persistence: Promise<RedisPersistence>;
}

const ACCEPTED_EVENTS: PersistenceWording = {
  kept: "accepted events",
  partLost: "those events are never handled (the service does not deliver an event again after its 200)",
  allLost:
    "a restart loses every accepted event not yet handled (the service does not deliver them again) and " +
    "forgets which were accepted",
  unchecked: "accepted events not yet handled are lost on a restart",
};
const CHECK_TIMEOUT_MS = 2_000;

// Lua tables come back as arrays of strings and integers.
type TakeReply = [string, [string, string, number][]];

/** Pairs a flat HGETALL reply into a map. */
function pairs(flat: unknown[]): Map<string, string> {
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) map.set(String(flat[i]), String(flat[i + 1]));
  return map;
}

/**
 * The inbox store on Redis Streams (Redis 6.2 or later): an accepted event is one `XADD`, in a script that
 * first checks the event's dedup mark (so a redelivery is not appended twice) and then sets it; receivers
 * read with `XREADGROUP` in one consumer group, remove what they handled (`XACK`, `XDEL`), and take over
 * entries whose receiver stopped renewing them for a lease (`XAUTOCLAIM`). Failed runs wait in a sorted set
 * for their retry time; parked events in a hash. An accepted event survives the receiver's crash; it
 * survives a Redis restart only with AOF (see `persistence`). One Redis, not a cluster.
 *
 * @example
 * const redis = await createClient({ url: process.env.REDIS_URL }).on("error", console.error).connect();
 * const store = redisInbox(redis, { persistence: "require" });
 * await store.persistence; // refuses to start on a Redis without AOF
 * const inbox = createInbox({ store, handler: applyEvent });
 */
export function redisInbox(client: RedisClientLike, options: RedisInboxOptions = {}): RedisInboxStore {
  const redis = commandsOf(client, "redisInbox");
  const { prefix = "exchange-kit:inbox:", group = "receivers", persistence: policy = "warn", onWarning } = options;
  const persistence = checkPersistence(redis.configGet, {
    policy,
    onWarning,
    wording: ACCEPTED_EVENTS,
    refuse: (message, cause) => new InboxStoreError("check", message, { cause }),
    bound: (call) => inboxBounded("check", CHECK_TIMEOUT_MS, call),
  });
  // Fail closed: under "require", nothing is accepted until the check passed.
  const ready = policy === "require" ? () => persistence : () => undefined;
  const [stream, retries, parked, notes] = ["stream", "retries", "parked", "parked-notes"].map((name) => prefix + name);
  const flag = async (reply: Promise<unknown>) => Number(await reply) === 1;
  const held = (script: string, keys: string[], consumer: string, id: string, more: string[] = []) =>
    flag(redis.evaluate(script, keys, [group, consumer, id, ...more]));
  let cursor = "0-0"; // where XAUTOCLAIM's scan of the pending entries goes on

  return {
    persistence,
    async append(key, record, ttlMs, _now, legacyKey) {
      await ready();
      const keys = [`${prefix}seen:${key}`, stream!];
      if (legacyKey !== undefined) keys.push(`${prefix}seen:${legacyKey}`);
      return flag(redis.evaluate(APPEND, keys, [record, String(ttlMs)]));
    },
    async take(consumer, count, leaseMs, now) {
      const args = [group, consumer, String(count), String(leaseMs), String(now), cursor];
      const [next, taken] = (await redis.evaluate(TAKE, [stream!, retries!], args)) as TakeReply;
      cursor = String(next);
      return taken.map(([id, record, attempt]) => ({
        id: String(id),
        record: String(record),
        attempt: Number(attempt),
      }));
    },
    renew: (consumer, id) => held(RENEW, [stream!], consumer, id),
    done: (consumer, id) => held(DONE, [stream!], consumer, id),
    retry: (consumer, id, record, attempt, dueAt) =>
      held(RETRY, [stream!, retries!], consumer, id, [String(dueAt), `${attempt}:${record}`]),
    park: (consumer, id, { key, record, note }) =>
      held(PARK, [stream!, parked!, notes!], consumer, id, [key, record, note]),
    async parked(): Promise<ParkedRecord[]> {
      const [records, why] = (await redis.evaluate(PARKED, [parked!, notes!], [])) as [unknown[], unknown[]];
      const noteOf = pairs(why);
      return [...pairs(records)].map(([key, record]) => ({ key, record, note: noteOf.get(key) ?? "" }));
    },
    replay: (key) => flag(redis.evaluate(REPLAY, [parked!, notes!, stream!], [key])),
    async leave(consumer) {
      await redis.evaluate(LEAVE, [stream!], [group, consumer]);
    },
  };
}
