// The sandbox state each organization owns besides its records: its clock offset and its runtime settings. One
// organization moving its clock or changing a setting never changes what another one sees. The rest of the
// sandbox reads this state only through `OrganizationState`, so a store shared by several sandbox processes (a
// database the replicas share) can take the place of `LocalOrganizationState` without touching the callers.

/** The settings the control API changes (POST /_sandbox/settings), per organization. */
export interface RuntimeSettings {
  /** Delay before a record's next automatic step; false = records move only through the control API. */
  autoProgressMs: number | false;
  /** Deliver every event twice. */
  duplicateDeliveries: boolean;
  /** Validity of new quotations, in sandbox-clock seconds. */
  quotationTtlSeconds: number;
}

/** Per-organization clock offset and settings. */
export interface OrganizationState {
  /** How far the organization's sandbox clock is ahead of real time (negative: behind), in milliseconds. */
  clockOffsetMs(org: string): number;
  setClockOffsetMs(org: string, offsetMs: number): void;
  settings(org: string): Readonly<RuntimeSettings>;
  /** Applies the members given and answers the organization's settings after the change. */
  updateSettings(org: string, change: Partial<RuntimeSettings>): Readonly<RuntimeSettings>;
}

/** Where clock offsets are kept: string values by key (the store's meta table). */
export interface OffsetStorage {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/** Before offsets were per organization the file held one, under this key; every organization starts from it. */
const SHARED_OFFSET_KEY = "clock_offset_ms";

/** The meta key of an organization's clock offset. */
export function clockOffsetKey(org: string): string {
  return `${SHARED_OFFSET_KEY}:${org}`;
}

/**
 * The state of one sandbox process: clock offsets in the store's meta table (so they survive a restart on a
 * database file, as the single offset did), settings in memory, starting from the sandbox's options for every
 * organization (as the single set of settings did).
 *
 * @example
 * const state = new LocalOrganizationState({ autoProgressMs: 200, duplicateDeliveries: false, quotationTtlSeconds: 300 }, {
 *   get: (key) => store.getMeta(key),
 *   set: (key, value) => store.setMeta(key, value),
 * });
 * state.updateSettings(orgA, { quotationTtlSeconds: 1 }); // orgB keeps 300
 */
export class LocalOrganizationState implements OrganizationState {
  private readonly changed = new Map<string, RuntimeSettings>();

  constructor(
    private readonly defaults: Readonly<RuntimeSettings>,
    private readonly storage: OffsetStorage,
  ) {}

  // Read from the storage every time rather than cached: a write the request's transaction rolls back is gone
  // from the storage, and a cache would keep it.
  clockOffsetMs(org: string): number {
    return Number(this.storage.get(clockOffsetKey(org)) ?? this.storage.get(SHARED_OFFSET_KEY) ?? 0);
  }

  setClockOffsetMs(org: string, offsetMs: number): void {
    if (!Number.isSafeInteger(offsetMs)) throw new RangeError("the clock offset must be a whole number of ms");
    this.storage.set(clockOffsetKey(org), String(offsetMs));
  }

  settings(org: string): Readonly<RuntimeSettings> {
    return this.changed.get(org) ?? this.defaults;
  }

  updateSettings(org: string, change: Partial<RuntimeSettings>): Readonly<RuntimeSettings> {
    const next = { ...this.settings(org) };
    for (const [key, value] of Object.entries(change) as Array<[keyof RuntimeSettings, never]>) {
      if (value !== undefined) next[key] = value;
    }
    this.changed.set(org, next);
    return next;
  }
}
