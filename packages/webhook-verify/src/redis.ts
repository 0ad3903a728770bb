// The "./redis" entry: the shared stores on Redis, for receivers on several instances.
export { redisStore } from "./redis-store.js";
export type { RedisDedupStore, RedisStoreOptions } from "./redis-store.js";
export { redisInbox } from "./redis-inbox.js";
export type { RedisInboxOptions, RedisInboxStore } from "./redis-inbox.js";
export type { RedisClientLike } from "./redis-client.js";
export type { RedisPersistence } from "./redis-persistence.js";
