import type { ClaimState, DedupStore } from "./dedup-store.js";
import { configValue, readPersistence, type RedisPersistence } from "./redis-persistence.js";
import { bounded, DedupStoreError } from "./store-errors.js";

/**
 * A connected client of `redis` (node-redis v4 and later) or `ioredis`.
 * Typed loosely because the two libraries' overloads differ; which one it
 * is is told from its shape at run time.
 */
export interface RedisClientLike {
  // biome-ignore lint/suspicious/noExplicitAny: node-redis and ioredis overload set differently (see above).
  set(...args: any[]): Promise<unknown>;
  get(key: string): Promise<unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: node-redis and ioredis overload eval differently (see above).
  eval(...args: any[]): Promise<unknown>;
}

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
  renew(key: string, token: string, ttlMs: number): Promise<boolean>;
  /**
   * The persistence check's result; rejects with a DedupStoreError when `persistence: "require"` is
   * not met, so `await store.persistence` at start-up refuses to start. Resolves to `unknown` with `skip`.
   */
  readonly persistence: Promise<RedisPersistence>;
}

/** The few commands the store needs, in one client library's calling convention. */
interface Commands {
  setNxPx(key: string, value: string, ms: number): Promise<boolean>;
  setPx(key: string, value: string, ms: number): Promise<void>;
  get(key: string): Promise<unknown>;
  evalOneKey(script: string, key: string, args: string[]): Promise<unknown>;
  configGet(name: string): Promise<string | undefined>;
}

// biome-ignore lint/suspicious/noExplicitAny: a command table read by name, whichever library's overloads it has.
type Loose = { [command: string]: (...args: any[]) => Promise<unknown> };

function nodeRedis(client: RedisClientLike): Commands {
  return {
    // v5+ read condition/expiration and v4 reads NX/PX; each ignores the other's, so one call fits both.
    setNxPx: async (key, value, ms) =>
      (await client.set(key, value, { condition: "NX", expiration: { type: "PX", value: ms }, NX: true, PX: ms })) !==
      null,
    setPx: async (key, value, ms) => {
      await client.set(key, value, { expiration: { type: "PX", value: ms }, PX: ms });
    },
    get: (key) => client.get(key),
    evalOneKey: (script, key, args) => client.eval(script, { keys: [key], arguments: args }),
    configGet: async (name) => configValue(await (client as unknown as Loose).configGet!(name), name),
  };
}

function ioredis(client: RedisClientLike): Commands {
  return {
    setNxPx: async (key, value, ms) => (await client.set(key, value, "PX", ms, "NX")) !== null,
    setPx: async (key, value, ms) => {
      await client.set(key, value, "PX", ms);
    },
    get: (key) => client.get(key),
    evalOneKey: (script, key, args) => client.eval(script, 1, key, ...args),
    configGet: async (name) => configValue(await (client as unknown as Loose).config!("GET", name), name),
  };
}

function commandsOf(client: RedisClientLike): Commands {
  const shape = client as unknown as { isOpen?: unknown; status?: unknown };
  if (client !== null && typeof client === "object") {
    if ("isOpen" in shape) return nodeRedis(client); // node-redis clients and clusters
    if (typeof shape.status === "string") return ioredis(client); // ioredis Redis and Cluster
  }
  throw new TypeError("redisStore expects a client of redis (node-redis v4+) or ioredis");
}

const DONE = "done";
const PROCESSING = "processing:";
// Both act only while the claim is still ours: after a claim expired and
// another receiver claimed the event, a late failure must not free theirs,
// nor a late renewal extend it.
const RELEASE_IF_OURS = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`;
const RENEW_IF_OURS = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`;
const CHECK_TIMEOUT_MS = 2_000;

/**
 * The dedup store for receivers on several instances, on one Redis: a claim
 * is an atomic `SET key processing:<token> NX PX <claimTtl>` (a lease,
 * renewed by a script while the handler runs), done is `SET key done PX <ttl>`,
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
  const redis = commandsOf(client);
  const { prefix = "exchange-kit:webhook:", persistence: policy = "warn", onWarning = console.warn } = options;
  if (!["warn", "require", "skip"].includes(policy))
    throw new TypeError('persistence must be "warn", "require" or "skip"');
  const persistence: Promise<RedisPersistence> =
    policy === "skip"
      ? Promise.resolve({ mode: "unknown", survivesRestart: false, summary: "persistence not checked (skip)" })
      : bounded("check", CHECK_TIMEOUT_MS, () => readPersistence(redis.configGet)).then(
          (found) => {
            if (found.survivesRestart) return found;
            if (policy === "require")
              throw new DedupStoreError("check", `@exchange-kit/webhook-verify: refusing this Redis: ${found.summary}`);
            onWarning(`@exchange-kit/webhook-verify: ${found.summary}`);
            return found;
          },
          (error: unknown) => {
            const summary = `could not check the Redis persistence settings: ${(error as Error).message}`;
            if (policy === "require")
              throw new DedupStoreError("check", `@exchange-kit/webhook-verify: ${summary}`, { cause: error });
            onWarning(`@exchange-kit/webhook-verify: ${summary}`);
            return { mode: "unknown", survivesRestart: false, summary } satisfies RedisPersistence;
          },
        );
  persistence.catch(() => {}); // the refusal reaches every claim; not awaiting it must not crash the process
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
      return Number(await redis.evalOneKey(RENEW_IF_OURS, prefix + key, [PROCESSING + token, String(ttlMs)])) === 1;
    },
    async complete(key, _token, ttlMs) {
      await redis.setPx(prefix + key, DONE, ttlMs);
    },
    async release(key, token) {
      await redis.evalOneKey(RELEASE_IF_OURS, prefix + key, [PROCESSING + token]);
    },
  };
}
