// Everything a handler needs: the store, the sandbox clock, the event log and automatic progress.
import type { PlannedStep } from "../store/records.js";
import type { Store } from "../store/store.js";
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
  plan?: PlannedStep[];
}

export class Domain {
  readonly progress: AutoProgress;

  constructor(
    readonly store: Store,
    readonly clock: SandboxClock,
    readonly events: EventLog,
    readonly settings: RuntimeSettings,
    onError: (error: unknown) => void = () => {},
  ) {
    this.progress = new AutoProgress(
      () => this.settings.autoProgressMs,
      (kind, id) => this.step(kind, id),
      onError,
    );
  }

  private table(kind: ProgressKind): { get(id: string): Planned | undefined } {
    switch (kind) {
      case "customer":
        return this.store.customers;
      case "bank":
        return this.store.banks;
      case "payin":
        return this.store.payins;
      case "payout":
        return this.store.payouts;
      case "edd":
        return this.store.edd;
    }
  }

  /** Gives the record the statuses still ahead of it and starts the clock on the first one. */
  plan(kind: ProgressKind, row: Planned, steps: PlannedStep[]): void {
    row.plan = steps;
    if (steps.length > 0) this.progress.schedule(kind, row.id);
    else this.progress.cancel(kind, row.id);
  }

  /** Moves a record now (the control API), dropping whatever was planned for it. */
  move(kind: ProgressKind, id: string, step: PlannedStep): void {
    const row = this.table(kind).get(id);
    if (!row) return;
    row.plan = [];
    this.progress.cancel(kind, id);
    this.apply(kind, row, step);
  }

  /** Takes the next planned step; answers whether more remain. */
  private step(kind: ProgressKind, id: string): boolean {
    const row = this.table(kind).get(id);
    const next = row?.plan?.shift();
    if (!row || !next) return false;
    this.apply(kind, row, next);
    return (row.plan?.length ?? 0) > 0;
  }

  private apply(kind: ProgressKind, row: Planned, step: PlannedStep): void {
    switch (kind) {
      case "customer":
        return moveCustomer(this, this.store.customers.get(row.id)!, step);
      case "bank":
        return moveBank(this, this.store.banks.get(row.id)!, step);
      case "payin":
        return movePayin(this, this.store.payins.get(row.id)!, step);
      case "payout":
        return movePayout(this, this.store.payouts.get(row.id)!, step);
      case "edd":
        return moveEdd(this, this.store.edd.get(row.id)!, step);
    }
  }

  /** After a restart or when automatic progress is switched on: schedule every record that still has a plan. */
  resumePlans(): void {
    const kinds: Array<[ProgressKind, Iterable<Planned>]> = [
      ["customer", this.store.customers.all()],
      ["bank", this.store.banks.all()],
      ["payin", this.store.payins.all()],
      ["payout", this.store.payouts.all()],
      ["edd", this.store.edd.all()],
    ];
    for (const [kind, rows] of kinds) for (const row of rows) if (row.plan && row.plan.length > 0) this.progress.schedule(kind, row.id);
  }

  close(): void {
    this.progress.close();
  }
}
