import { configValue } from "./redis-persistence.js";

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

/** The few commands the stores need, in one client library's calling convention. */
export interface Commands {
  setNxPx(key: string, value: string, ms: number): Promise<boolean>;
  get(key: string): Promise<unknown>;
  /** EVAL: Lua tables come back as arrays from both libraries and both protocols (RESP2 and RESP3). */
  evaluate(script: string, keys: string[], args: string[]): Promise<unknown>;
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
    get: (key) => client.get(key),
    evaluate: (script, keys, args) => client.eval(script, { keys, arguments: args }),
    configGet: async (name) => configValue(await (client as unknown as Loose).configGet!(name), name),
  };
}

function ioredis(client: RedisClientLike): Commands {
  return {
    setNxPx: async (key, value, ms) => (await client.set(key, value, "PX", ms, "NX")) !== null,
    get: (key) => client.get(key),
    evaluate: (script, keys, args) => client.eval(script, keys.length, ...keys, ...args),
    configGet: async (name) => configValue(await (client as unknown as Loose).config!("GET", name), name),
  };
}

/** The commands of a node-redis or ioredis client, told apart by shape; a TypeError naming `caller` otherwise. */
export function commandsOf(client: RedisClientLike, caller: string): Commands {
  const shape = client as unknown as { isOpen?: unknown; status?: unknown };
  if (client !== null && typeof client === "object") {
    if ("isOpen" in shape) return nodeRedis(client); // node-redis clients and clusters
    if (typeof shape.status === "string") return ioredis(client); // ioredis Redis and Cluster
  }
  throw new TypeError(`${caller} expects a client of redis (node-redis v4+) or ioredis`);
}
