// Everything a handler needs: the store, each organization's clock and settings, the event log and automatic
// progress.
import type { PlannedStep } from "../records/rows.js";
import { RECORD_KINDS, RECORD_TYPES, type RecordType } from "../record-kinds.js";
import type { Store, Table } from "../store/store.js";
import { SandboxClock } from "./clock.js";
import type { DeferredWork } from "./deferred-work.js";
import type { OrganizationState, RuntimeSettings } from "./organization-state.js";
import { NO_STEP_TRACING, type EventSink, type StepTracing } from "./ports.js";
import { AutoProgress, type ProgressKind } from "./progress.js";
import { type MoveContext, MOVES } from "./transitions.js";

interface Planned {
  id: string;
  org: string;
  plan?: PlannedStep[];
}

/** A kind of record that moves: where its rows live and its state machine. */
interface Movable {
  get(id: string): Promise<Planned | undefined>;
  /** The records that still have steps ahead of them (every organization's, or one's), with how many. */
  planned(org?: string): Promise<Array<{ id: string; org: string; remaining: number }>>;
  /** Writes the row back, so its plan survives a restart on a database file. */
  save(row: Planned): Promise<unknown>;
  move(domain: MoveContext, row: Planned, step: PlannedStep): Promise<void>;
}

/** Every organization's records of a table that still have steps ahead of them, with how many. */
async function plannedEverywhere<T extends Planned>(table: Table<T>) {
  const found: Array<{ id: string; org: string; remaining: number }> = [];
  for (const id of await table.plannedIds()) {
    const row = await table.get(id);
    if (row) found.push({ id, org: row.org, remaining: row.plan?.length ?? 0 });
  }
  return found;
}

function movable<T extends Planned>(
  table: Table<T>,
  move: (domain: MoveContext, row: T, step: PlannedStep) => Promise<void>,
): Movable {
  // Rows handed to move() come from this table's get(), so they are T.
  return {
    get: (id) => table.get(id),
    planned: async (org) =>
      org === undefined
        ? await plannedEverywhere(table)
        : (await table.where("planned = 1 AND org = ?", [org])).map((row) => ({
            id: row.id,
            org,
            remaining: row.plan?.length ?? 0,
          })),
    save: (row) => table.put(row as T),
    move: async (domain, row, step) => await move(domain, row as T, step),
  };
}

/** The progress kind of an event type's records: its table name. */
const progressKind = (type: RecordType): ProgressKind => RECORD_KINDS[type].table.kind;

/** Each kind of the registry, by its progress kind (its table name): where its rows live and how they move. */
function movables(store: Store): Record<ProgressKind, Movable> {
  const kindOf = <T extends RecordType>(type: T): [ProgressKind, Movable] => {
    return [RECORD_KINDS[type].table.kind, movable(store.recordTable(type), MOVES[type])];
  };
  return Object.fromEntries(RECORD_TYPES.map(kindOf)) as Record<ProgressKind, Movable>;
}

export class SandboxDomain {
  readonly progress: AutoProgress;
  private readonly kinds: Record<ProgressKind, Movable>;

  constructor(
    readonly store: Store,
    private readonly state: OrganizationState,
    /** The event log (webhooks/events.ts): moves emit their events into it. */
    readonly events: EventSink,
    onError: (error: unknown) => void = () => {},
    /** Where steps wait for their time: this process's timers, or a job queue the replicas share. */
    work: DeferredWork,
    /** How automatic steps are traced (tracing/); not at all when absent. */
    tracing: StepTracing = NO_STEP_TRACING,
  ) {
    this.kinds = movables(store);
    this.progress = new AutoProgress(
      work,
      async (org) => (await this.settings(org)).autoProgressMs,
      (kind, id, remaining) => this.step(kind, id, remaining),
      onError,
      store.recovery,
      tracing,
    );
  }

  /** The organization's sandbox clock: what "now" is for its records. */
  async clock(org: string): Promise<SandboxClock> {
    return new SandboxClock(this.state, org, await this.state.clockOffsetMs(org));
  }

  /** The organization's runtime settings. */
  async settings(org: string): Promise<Readonly<RuntimeSettings>> {
    return await this.state.settings(org);
  }

  /**
   * Changes the organization's settings (at once, so the answer shows them). Its records' steps follow: switched
   * off, a step that comes due does nothing (the plans stay stored); given a delay, every planned record is
   * rescheduled with it, in the request's transaction. Other organizations' steps are left alone.
   */
  async updateSettings(org: string, change: Partial<RuntimeSettings>): Promise<Readonly<RuntimeSettings>> {
    const next = await this.state.updateSettings(org, change);
    if (change.autoProgressMs !== undefined && next.autoProgressMs !== false) await this.resumePlans(org);
    return next;
  }

  /** Gives the record of event type `type` the statuses still ahead of it and starts the clock on the first one. */
  async plan(type: RecordType, row: Planned, steps: PlannedStep[]): Promise<void> {
    const kind = progressKind(type);
    row.plan = steps;
    // Handlers may have stored the row before planning; storing it here keeps the plan in the file either way.
    await this.kinds[kind].save(row);
    // Deferred in the request's transaction: a rolled-back plan never runs.
    if (steps.length > 0) await this.progress.schedule(kind, row.id, row.org, steps.length);
    else await this.progress.cancel(kind, row.id);
  }

  /** Stops a record's automatic progress once the current request commits (e.g. it was deleted). */
  async cancel(type: RecordType, id: string): Promise<void> {
    await this.progress.cancel(progressKind(type), id);
  }

  /** Moves a record now (the control API), dropping whatever was planned for it. */
  async move(type: RecordType, id: string, step: PlannedStep): Promise<void> {
    const kind = progressKind(type);
    const row = await this.kinds[kind].get(id);
    if (!row) return;
    row.plan = [];
    await this.cancel(type, id);
    await this.kinds[kind].move(this, row, step);
  }

  /**
   * Takes the next planned step, if the plan is still `remaining` steps long (a step run twice, or one the control
   * API overtook, does nothing), and schedules the one after it.
   */
  private async step(kind: ProgressKind, id: string, remaining: number): Promise<void> {
    // One transaction per step: the move, its event, the shortened plan and the next step's schedule are stored
    // together or not at all.
    await this.store.transaction(async () => {
      const row = await this.kinds[kind].get(id);
      if (!row?.plan || row.plan.length !== remaining) return;
      const next = row.plan.shift();
      if (!next) return;
      await this.kinds[kind].move(this, row, next);
      const left = row.plan?.length ?? 0;
      if (left > 0) await this.progress.schedule(kind, id, row.org, left);
    });
  }

  /**
   * After a restart (every organization) or when an organization switches automatic progress on or changes its
   * delay (that organization only): schedules each record that still has a plan.
   */
  async resumePlans(org?: string): Promise<void> {
    for (const [kind, movable] of Object.entries(this.kinds) as Array<[ProgressKind, Movable]>) {
      for (const row of await movable.planned(org)) await this.progress.schedule(kind, row.id, row.org, row.remaining);
    }
  }
}
