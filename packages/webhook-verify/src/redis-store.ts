import type { ClaimState, DedupStore } from "./dedup-store.js";
import { commandsOf, type RedisClientLike } from "./redis-client.js";
import { checkPersistence, type RedisPersistence } from "./redis-persistence.js";
import { bounded, DedupStoreError } from "./store-errors.js";

export interface RedisStoreOptions {
  /** Prefix of every key this store writes. Default "exchange-kit:webhook:". */
  prefix?: string;
  /**
   * What to do when the server would forget done marks on a restart (no AOF), checked with CONFIG GET
   * at creation: `warn` (default) logs it through `onWarning`; `require` refuses: `persistence` rejects
   * and every claim fails (the adapters answer 503); `skip` does not check (CONFIG not permitted, and
   * you know the server persists).
   */
  persistence?: "warn" | "require" | "skip";
  /** Where the persistence warning goes. Default console.warn. */
  onWarning?: (message: string) => void;
}

/** A Redis dedup store, with what its persistence check found. */
export interface RedisDedupStore extends DedupStore {
  /** Extends the claim while `token` still holds it. */
  renew(key: string, token: string, ttlMs: number): Promise<boolean>;
  /** Marks the event done; false when `token` no longer held the claim (a lost lease). */
  complete(key: string, token: string, ttlMs: number): Promise<boolean>;
  /**
   * The persistence check's result; rejects with a DedupStoreError when `persistence: "require"` is
   * not met, so `await store.persistence` at start-up refuses to start. Resolves to `unknown` with `skip`.
   */
  readonly persistence: Promise<RedisPersistence>;
}

const DONE = "done";
const PROCESSING = "processing:";
// Both act only while the claim is still ours: after a claim expired and
// another receiver claimed the event, a late failure must not free theirs,
// nor a late renewal extend it.
const RELEASE_IF_OURS = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`;
const RENEW_IF_OURS = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`;
// Done whoever holds the key (the handler did run), and says whether the claim was still ours.
const COMPLETE = `local ours = redis.call("GET", KEYS[1]) == ARGV[1] redis.call("SET", KEYS[1], "done", "PX", ARGV[2]) if ours then return 1 end return 0`;
const CHECK_TIMEOUT_MS = 2_000;

/**
 * The dedup store for receivers on several instances, on one Redis: a claim
 * is an atomic `SET key processing:<token> NX PX <claimTtl>` (a lease,
 * renewed by a script while the handler runs), done is `SET key done PX <ttl>` (by a script that also says whether the claim was still ours),
 * and a release deletes the key only while it still holds our token. At
 * creation it checks with CONFIG GET that done marks survive a restart
 * (AOF) and warns, or with `persistence: "require"` refuses, when they do not.
 *
 * @example
 * import { createClient } from "redis";
 * const redis = await createClient({ url: process.env.REDIS_URL }).on("error", console.error).connect();
 * const store = redisStore(redis, { persistence: "require" });
 * await store.persistence; // refuses to start on a Redis without AOF
 * const deduplicator = createDeduplicator({ store });
 */
export function redisStore(client: RedisClientLike, options: RedisStoreOptions = {}): RedisDedupStore {
  const redis = commandsOf(client, "redisStore");
  const { prefix = "exchange-kit:webhook:", persistence: policy = "warn", onWarning } = options;
  const persistence = checkPersistence(redis.configGet, {
    policy,
    onWarning,
    refuse: (message, cause) => new DedupStoreError("check", message, { cause }),
    bound: (call) => bounded("check", CHECK_TIMEOUT_MS, call),
  });
  // Fail closed: under "require", nothing is claimed until the check passed.
  const ready = policy === "require" ? () => persistence : () => undefined;

  return {
    persistence,
    async claim(key, token, ttlMs): Promise<ClaimState> {
      await ready();
      // Twice at most: the holder may release or expire between our SET and GET.
      for (let attempt = 0; attempt < 2; attempt++) {
        if (await redis.setNxPx(prefix + key, PROCESSING + token, ttlMs)) return "claimed";
        const current = await redis.get(prefix + key);
        if (current === DONE) return "done";
        if (current !== null && current !== undefined) return "processing";
      }
      return "processing";
    },
    async renew(key, token, ttlMs) {
      return Number(await redis.evaluate(RENEW_IF_OURS, [prefix + key], [PROCESSING + token, String(ttlMs)])) === 1;
    },
    async complete(key, token, ttlMs) {
      return Number(await redis.evaluate(COMPLETE, [prefix + key], [PROCESSING + token, String(ttlMs)])) === 1;
    },
    async release(key, token) {
      await redis.evaluate(RELEASE_IF_OURS, [prefix + key], [PROCESSING + token]);
    },
  };
}
