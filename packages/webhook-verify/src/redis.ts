// The "./redis" entry: the shared dedup store for receivers on several instances.
export { redisStore } from "./redis-store.js";
export type { RedisClientLike, RedisDedupStore, RedisStoreOptions } from "./redis-store.js";
export type { RedisPersistence } from "./redis-persistence.js";
