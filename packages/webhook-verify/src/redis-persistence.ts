// Whether what the stores keep in Redis survives a Redis restart decides whether their guarantees do: without
// persistence a restart forgets every handled event (the dedup store) or loses every accepted event not yet
// handled (the inbox).

/** What the Redis server persists, as far as CONFIG GET tells. */
export interface RedisPersistence {
  /**
   * `aof`: an append-only file, so acknowledged writes survive a restart (within `appendfsync`);
   * `rdb`: snapshots only, so what was written since the last snapshot is lost; `none`: nothing
   * survives a restart; `unknown`: CONFIG GET is not permitted here (managed Redis) or failed.
   */
  mode: "aof" | "rdb" | "none" | "unknown";
  /** `always`, `everysec` or `no` with AOF. */
  appendfsync?: string;
  /** The RDB snapshot schedule ("" when off). */
  save?: string;
  /** What the store keeps survives a restart of the Redis process. */
  survivesRestart: boolean;
  /** One sentence for a log line. */
  summary: string;
}

/** Reads one CONFIG parameter, or throws where CONFIG is not permitted. */
export type ConfigReader = (name: string) => Promise<string | undefined>;

/** How a summary names what a store keeps in Redis and what losing it costs. */
export interface PersistenceWording {
  /** What the store writes, e.g. "done marks". */
  kept: string;
  /** What losing some of it costs, e.g. "those events are handled again". */
  partLost: string;
  /** What a restart without persistence costs. */
  allLost: string;
  /** What to fear when the settings cannot be read. */
  unchecked: string;
}

/** The dedup store's wording, which its warnings have always used. */
export const DONE_MARKS: PersistenceWording = {
  kept: "done marks",
  partLost: "those events are handled again",
  allLost: "a restart forgets every handled event, and redeliveries are handled again",
  unchecked: "handled events are handled again after a restart",
};

function aofSummary(appendfsync: string | undefined, { kept }: PersistenceWording): string {
  const what =
    appendfsync === "always"
      ? `acknowledged ${kept} survive a crash of the machine`
      : appendfsync === "everysec"
        ? `${kept} survive a restart or a crash of Redis; a crash of the machine loses up to about a second of them`
        : `${kept} survive a restart of Redis; a crash of the machine loses what the OS had not flushed`;
  return `Redis persists with AOF (appendfsync ${appendfsync}): ${what}`;
}

/** Classifies the server's persistence from its CONFIG: see RedisPersistence. */
export async function readPersistence(
  config: ConfigReader,
  wording: PersistenceWording = DONE_MARKS,
): Promise<RedisPersistence> {
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
        `make sure the server runs with appendonly yes, or ${wording.unchecked}`,
    };
  }
  if (appendonly === "yes") {
    return { mode: "aof", appendfsync, save, survivesRestart: true, summary: aofSummary(appendfsync, wording) };
  }
  if (save !== undefined && save.trim() !== "") {
    const summary =
      `Redis persists with RDB snapshots only (save "${save}"): ${wording.kept} written since the last snapshot ` +
      `are lost on a restart, and ${wording.partLost}; set appendonly yes`;
    return { mode: "rdb", appendfsync, save, survivesRestart: false, summary };
  }
  const summary = `Redis runs without persistence: ${wording.allLost}; set appendonly yes`;
  return { mode: "none", appendfsync, save, survivesRestart: false, summary };
}

/** What to do when the server would lose what a store keeps on a restart: warn, refuse, or not check. */
export type PersistencePolicy = "warn" | "require" | "skip";

export interface PersistenceCheck {
  policy?: PersistencePolicy;
  onWarning?: (message: string) => void;
  wording?: PersistenceWording;
  /** The error a refusal rejects with (the store's own kind). */
  refuse: (message: string, cause?: unknown) => Error;
  /** Runs the CONFIG reads within the store's timeout. */
  bound: <T>(call: () => Promise<T>) => Promise<T>;
}

/**
 * Checks the server's persistence once: under `warn` a server that would forget is reported through
 * `onWarning`; under `require` the promise rejects (so `await store.persistence` refuses to start); `skip`
 * does not look. The rejection is also handled here, so not awaiting it does not crash the process.
 */
export function checkPersistence(config: ConfigReader, check: PersistenceCheck): Promise<RedisPersistence> {
  const { policy = "warn", onWarning = console.warn, wording = DONE_MARKS, refuse } = check;
  if (!["warn", "require", "skip"].includes(policy))
    throw new TypeError('persistence must be "warn", "require" or "skip"');
  if (policy === "skip") {
    return Promise.resolve({ mode: "unknown", survivesRestart: false, summary: "persistence not checked (skip)" });
  }
  const found = check
    .bound(() => readPersistence(config, wording))
    .then(
      (found) => {
        if (found.survivesRestart) return found;
        if (policy === "require") throw refuse(`@exchange-kit/webhook-verify: refusing this Redis: ${found.summary}`);
        onWarning(`@exchange-kit/webhook-verify: ${found.summary}`);
        return found;
      },
      (error: unknown) => {
        const summary = `could not check the Redis persistence settings: ${(error as Error).message}`;
        if (policy === "require") throw refuse(`@exchange-kit/webhook-verify: ${summary}`, error);
        onWarning(`@exchange-kit/webhook-verify: ${summary}`);
        return { mode: "unknown", survivesRestart: false, summary } satisfies RedisPersistence;
      },
    );
  found.catch(() => {});
  return found;
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
