import type { ClaimState, DedupStore } from "./dedup-store.js";

/**
 * A connected client of `redis` (node-redis v4 and later) or `ioredis`.
 * Typed loosely because the two libraries' overloads differ; which one it
 * is is told from its shape at run time.
 */
export interface RedisClientLike {
  set(...args: any[]): Promise<unknown>;
  get(key: string): Promise<unknown>;
  eval(...args: any[]): Promise<unknown>;
}

export interface RedisStoreOptions {
  /** Prefix of every key this store writes. Default "exchange-kit:webhook:". */
  prefix?: string;
}

/** The few commands the store needs, in one client library's calling convention. */
interface Commands {
  setNxPx(key: string, value: string, ms: number): Promise<boolean>;
  setPx(key: string, value: string, ms: number): Promise<void>;
  get(key: string): Promise<unknown>;
  evalOneKey(script: string, key: string, arg: string): Promise<unknown>;
}

function nodeRedis(client: RedisClientLike): Commands {
  return {
    // v5+ read condition/expiration and v4 reads NX/PX; each ignores the other's, so one call fits both.
    setNxPx: async (key, value, ms) =>
      (await client.set(key, value, { condition: "NX", expiration: { type: "PX", value: ms }, NX: true, PX: ms })) !== null,
    setPx: async (key, value, ms) => {
      await client.set(key, value, { expiration: { type: "PX", value: ms }, PX: ms });
    },
    get: (key) => client.get(key),
    evalOneKey: (script, key, arg) => client.eval(script, { keys: [key], arguments: [arg] }),
  };
}

function ioredis(client: RedisClientLike): Commands {
  return {
    setNxPx: async (key, value, ms) => (await client.set(key, value, "PX", ms, "NX")) !== null,
    setPx: async (key, value, ms) => {
      await client.set(key, value, "PX", ms);
    },
    get: (key) => client.get(key),
    evalOneKey: (script, key, arg) => client.eval(script, 1, key, arg),
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
// Deletes the claim only if it is still ours: after a claim expired and
// another receiver claimed the event, a late failure must not free theirs.
const RELEASE_IF_OURS = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`;

/**
 * The dedup store for receivers on several instances, on one Redis: a claim
 * is an atomic `SET key processing:<token> NX PX <claimTtl>`, done is
 * `SET key done PX <ttl>`, and a release deletes the key only while it
 * still holds our token (a Lua script).
 *
 * @example
 * import { createClient } from "redis";
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const deduplicator = createDeduplicator({ store: redisStore(redis) });
 */
export function redisStore(client: RedisClientLike, options: RedisStoreOptions = {}): DedupStore {
  const redis = commandsOf(client);
  const prefix = options.prefix ?? "exchange-kit:webhook:";
  return {
    async claim(key, token, ttlMs): Promise<ClaimState> {
      // Twice at most: the holder may release or expire between our SET and GET.
      for (let attempt = 0; attempt < 2; attempt++) {
        if (await redis.setNxPx(prefix + key, PROCESSING + token, ttlMs)) return "claimed";
        const current = await redis.get(prefix + key);
        if (current === DONE) return "done";
        if (current !== null && current !== undefined) return "processing";
      }
      return "processing";
    },
    async complete(key, _token, ttlMs) {
      await redis.setPx(prefix + key, DONE, ttlMs);
    },
    async release(key, token) {
      await redis.evalOneKey(RELEASE_IF_OURS, prefix + key, PROCESSING + token);
    },
  };
}
