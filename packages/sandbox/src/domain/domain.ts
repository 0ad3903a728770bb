// Everything a handler needs: the store, the sandbox clock, the event log and automatic progress.
import type { PlannedStep } from "../store/records.js";
import type { Store, Table } from "../store/store.js";
import type { EventLog } from "../webhooks/events.js";
import type { SandboxClock } from "./clock.js";
import { AutoProgress, type ProgressKind } from "./progress.js";
import { moveBank, moveCustomer, moveEdd, movePayin, movePayout } from "./transitions.js";

export interface RuntimeSettings {
  autoProgressMs: number | false;
  duplicateDeliveries: boolean;
  quotationTtlSeconds: number;
}

interface Planned {
  id: string;
  org: string;
  plan?: PlannedStep[];
}

/** A kind of record that moves: where its rows live and its state machine. */
interface Movable {
  get(id: string): Planned | undefined;
  plannedIds(): string[];
  /** Writes the row back, so its plan survives a restart on a database file. */
  save(row: Planned): void;
  move(domain: Domain, row: Planned, step: PlannedStep): void;
}

function movable<T extends Planned>(
  table: Table<T>,
  move: (domain: Domain, row: T, step: PlannedStep) => void,
): Movable {
  // Rows handed to move() come from this table's get(), so they are T.
  return {
    get: (id) => table.get(id),
    plannedIds: () => table.plannedIds(),
    save: (row) => table.put(row as T),
    move: (domain, row, step) => move(domain, row as T, step),
  };
}

export class Domain {
  readonly progress: AutoProgress;
  private readonly kinds: Record<ProgressKind, Movable>;

  constructor(
    readonly store: Store,
    readonly clock: SandboxClock,
    readonly events: EventLog,
    readonly settings: RuntimeSettings,
    onError: (error: unknown) => void = () => {},
  ) {
    this.kinds = {
      customer: movable(store.customers, moveCustomer),
      bank: movable(store.banks, moveBank),
      payin: movable(store.payins, movePayin),
      payout: movable(store.payouts, movePayout),
      edd: movable(store.edd, moveEdd),
    };
    this.progress = new AutoProgress(
      () => this.settings.autoProgressMs,
      (kind, id) => this.step(kind, id),
      onError,
      store.recovery,
    );
  }

  /** Gives the record the statuses still ahead of it and starts the clock on the first one. */
  plan(kind: ProgressKind, row: Planned, steps: PlannedStep[]): void {
    row.plan = steps;
    // Handlers may have stored the row before planning; storing it here keeps the plan in the file either way.
    this.kinds[kind].save(row);
    // Timers start only once the request's writes are committed: a rolled-back plan never runs.
    this.store.afterCommit(() => {
      if (steps.length > 0) this.progress.schedule(kind, row.id);
      else this.progress.cancel(kind, row.id);
    });
  }

  /** Stops a record's automatic progress once the current request commits (e.g. it was deleted). */
  cancel(kind: ProgressKind, id: string): void {
    this.store.afterCommit(() => this.progress.cancel(kind, id));
  }

  /** Moves a record now (the control API), dropping whatever was planned for it. */
  move(kind: ProgressKind, id: string, step: PlannedStep): void {
    const row = this.kinds[kind].get(id);
    if (!row) return;
    row.plan = [];
    this.cancel(kind, id);
    this.kinds[kind].move(this, row, step);
  }

  /** Takes the next planned step; answers whether more remain. */
  private step(kind: ProgressKind, id: string): boolean {
    // One transaction per step: the move, its event and the shortened plan are stored together or not at all.
    return this.store.transaction(() => {
      const row = this.kinds[kind].get(id);
      const next = row?.plan?.shift();
      if (!row || !next) return false;
      this.kinds[kind].move(this, row, next);
      return (row.plan?.length ?? 0) > 0;
    });
  }

  /** After a restart or when automatic progress is switched on: schedule every record that still has a plan. */
  resumePlans(): void {
    for (const [kind, movable] of Object.entries(this.kinds) as Array<[ProgressKind, Movable]>) {
      for (const id of movable.plannedIds()) this.progress.schedule(kind, id);
    }
  }

  close(): void {
    this.progress.close();
  }
}
