// The sandbox state each organization owns besides its records: its clock offset and its runtime settings. One
// organization moving its clock or changing a setting never changes what another one sees. Both live in the
// store's meta table, read at every use: replicas on one database see one clock and one set of settings per
// organization, and a write the request's transaction rolls back is gone for everyone.
import { parseJson } from "@exchange-kit/signing";

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
  clockOffsetMs(org: string): Promise<number>;
  setClockOffsetMs(org: string, offsetMs: number): Promise<void>;
  settings(org: string): Promise<Readonly<RuntimeSettings>>;
  /** Applies the members given and answers the organization's settings after the change. */
  updateSettings(org: string, change: Partial<RuntimeSettings>): Promise<Readonly<RuntimeSettings>>;
}

/** Where offsets and settings are kept: string values by key (the store's meta table). */
export interface StateStorage {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
}

/** Before offsets were per organization the file held one, under this key; every organization starts from it. */
const SHARED_OFFSET_KEY = "clock_offset_ms";

/** The meta key of an organization's clock offset. */
export function clockOffsetKey(org: string): string {
  return `${SHARED_OFFSET_KEY}:${org}`;
}

/** The meta key of the settings an organization changed (JSON of the changed members only). */
export function settingsKey(org: string): string {
  return `settings:${org}`;
}

/**
 * Every meta key an organization's clock and settings are read from: what a request of it may read (a writer's
 * transaction reads them ahead, in one statement: Store's TransactionOptions.prefetch).
 *
 * @example
 * organizationStateKeys("9f0c…"); // ["clock_offset_ms:9f0c…", "clock_offset_ms", "settings:9f0c…"]
 */
export function organizationStateKeys(org: string): string[] {
  return [clockOffsetKey(org), SHARED_OFFSET_KEY, settingsKey(org)];
}

/** The members of a stored change that are settings (a value of another shape is dropped, not trusted). */
function storedChange(json: string | undefined): Partial<RuntimeSettings> {
  if (json === undefined) return {};
  const found = parseJson(json) as Record<string, unknown>;
  const change: Partial<RuntimeSettings> = {};
  if (found.autoProgressMs === false || typeof found.autoProgressMs === "number")
    change.autoProgressMs = found.autoProgressMs;
  if (typeof found.duplicateDeliveries === "boolean") change.duplicateDeliveries = found.duplicateDeliveries;
  if (typeof found.quotationTtlSeconds === "number") change.quotationTtlSeconds = found.quotationTtlSeconds;
  return change;
}

/**
 * The state of every organization, kept in the store's meta table: clock offsets (as a file of an earlier version
 * kept its single offset) and the settings each organization changed, over the sandbox's options for the rest.
 * So a restart on a database file keeps both, and replicas on one database share them.
 *
 * @example
 * const state = new StoredOrganizationState({ autoProgressMs: 200, duplicateDeliveries: false, quotationTtlSeconds: 300 }, {
 *   get: (key) => store.getMeta(key),
 *   set: (key, value) => store.setMeta(key, value),
 * });
 * state.updateSettings(orgA, { quotationTtlSeconds: 1 }); // orgB keeps 300
 */
export class StoredOrganizationState implements OrganizationState {
  constructor(
    private readonly defaults: Readonly<RuntimeSettings>,
    private readonly storage: StateStorage,
  ) {}

  // Read from the storage every time rather than cached: a write the request's transaction rolls back is gone
  // from the storage (a cache would keep it), and another replica's write is seen at once.
  async clockOffsetMs(org: string): Promise<number> {
    return Number((await this.storage.get(clockOffsetKey(org))) ?? (await this.storage.get(SHARED_OFFSET_KEY)) ?? 0);
  }

  async setClockOffsetMs(org: string, offsetMs: number): Promise<void> {
    if (!Number.isSafeInteger(offsetMs)) throw new RangeError("the clock offset must be a whole number of ms");
    await this.storage.set(clockOffsetKey(org), String(offsetMs));
  }

  async settings(org: string): Promise<Readonly<RuntimeSettings>> {
    return { ...this.defaults, ...storedChange(await this.storage.get(settingsKey(org))) };
  }

  /** Stores the members given (over the organization's earlier changes) and answers the settings after it. */
  async updateSettings(org: string, change: Partial<RuntimeSettings>): Promise<Readonly<RuntimeSettings>> {
    const changed = storedChange(await this.storage.get(settingsKey(org)));
    for (const [key, value] of Object.entries(change) as Array<[keyof RuntimeSettings, never]>) {
      if (value !== undefined) changed[key] = value;
    }
    await this.storage.set(settingsKey(org), JSON.stringify(changed));
    return { ...this.defaults, ...changed };
  }
}
