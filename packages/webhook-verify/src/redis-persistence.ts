// Whether done marks survive a Redis restart decides whether "handled once"
// survives one: without persistence a restart forgets every handled event and
// the next redelivery of each runs its handler again.

/** What the Redis server persists, as far as CONFIG GET tells. */
export interface RedisPersistence {
  /**
   * `aof`: an append-only file, so acknowledged writes survive a restart (within `appendfsync`);
   * `rdb`: snapshots only, so marks written since the last snapshot are lost; `none`: nothing
   * survives a restart; `unknown`: CONFIG GET is not permitted here (managed Redis) or failed.
   */
  mode: "aof" | "rdb" | "none" | "unknown";
  /** `always`, `everysec` or `no` with AOF. */
  appendfsync?: string;
  /** The RDB snapshot schedule ("" when off). */
  save?: string;
  /** Done marks survive a restart of the Redis process. */
  survivesRestart: boolean;
  /** One sentence for a log line. */
  summary: string;
}

/** Reads one CONFIG parameter, or throws where CONFIG is not permitted. */
export type ConfigReader = (name: string) => Promise<string | undefined>;

/** Classifies the server's persistence from its CONFIG: see RedisPersistence. */
export async function readPersistence(config: ConfigReader): Promise<RedisPersistence> {
  let appendonly: string | undefined;
  let appendfsync: string | undefined;
  let save: string | undefined;
  try {
    [appendonly, appendfsync, save] = await Promise.all(["appendonly", "appendfsync", "save"].map(config));
  } catch (error) {
    return {
      mode: "unknown",
      survivesRestart: false,
      summary:
        `could not read the Redis persistence settings (CONFIG GET: ${(error as Error)?.message ?? error}); ` +
        "make sure the server runs with appendonly yes, or handled events are handled again after a restart",
    };
  }
  if (appendonly === "yes") {
    return {
      mode: "aof",
      appendfsync,
      save,
      survivesRestart: true,
      summary:
        `Redis persists with AOF (appendfsync ${appendfsync}): ` +
        (appendfsync === "always"
          ? "acknowledged done marks survive a crash of the machine"
          : appendfsync === "everysec"
            ? "done marks survive a restart or a crash of Redis; a crash of the machine loses up to about a second of them"
            : "done marks survive a restart of Redis; a crash of the machine loses what the OS had not flushed"),
    };
  }
  if (save !== undefined && save.trim() !== "") {
    return {
      mode: "rdb",
      appendfsync,
      save,
      survivesRestart: false,
      summary:
        `Redis persists with RDB snapshots only (save "${save}"): done marks written since the last snapshot ` +
        "are lost on a restart, and those events are handled again; set appendonly yes",
    };
  }
  return {
    mode: "none",
    appendfsync,
    save,
    survivesRestart: false,
    summary:
      "Redis runs without persistence: a restart forgets every handled event, and redeliveries are handled again; set appendonly yes",
  };
}

/** The value of `name` in a CONFIG GET reply: node-redis gives an object, ioredis a flat [name, value] array. */
export function configValue(reply: unknown, name: string): string | undefined {
  if (Array.isArray(reply)) return reply.length >= 2 ? String(reply[1]) : undefined;
  if (reply !== null && typeof reply === "object") {
    const value = (reply as Record<string, unknown>)[name];
    return value === undefined ? undefined : String(value);
  }
  return undefined;
}
