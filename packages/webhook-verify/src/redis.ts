// The "./redis" entry: the shared dedup store for receivers on several instances.
export { redisStore } from "./redis-store.js";
export type { RedisClientLike, RedisStoreOptions } from "./redis-store.js";
