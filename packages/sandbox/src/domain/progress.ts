// Automatic progress: records that have a plan (the statuses still ahead of them) take the next step their
// organization's `autoProgressMs` after the previous one. With autoProgressMs = 0 the step runs right after the
// response; with false nothing of that organization moves on its own and the control API drives its records.
// Delays are real time, not sandbox time: advancing an organization's clock fires no step early. A step is
// deferred work (schedule/): a timer of this process on SQLite, a job in PostgreSQL that any replica runs once.
// A step whose transaction fails because the disk is full or failing is tried again with backoff
// (StorageRecovery) rather than dropped: no client is there to retry it.
import type { RecordTableName } from "../record-kinds.js";
import type { StorageRecovery } from "../store/storage-recovery.js";
import type { DeferredWork, TaskPayload } from "./deferred-work.js";
import { NO_STEP_TRACING, type StepTracing } from "./ports.js";

/** The kinds of record that move on their own: the registry's, by table name (as timers and traces name them). */
export type ProgressKind = RecordTableName;

/** What scheduled a step (its trace context), kept for the step's span while it is this process's to run. */
type Cause = unknown;

/** The causes kept at most: steps another replica ran leave theirs behind, dropped oldest first. */
const MAX_CAUSES = 10_000;

/** A step as the deferred work carries it; `remaining` is the plan's length when it was scheduled. */
interface StepPayload {
  readonly kind: ProgressKind;
  readonly id: string;
  readonly org: string;
  readonly remaining: number;
  readonly retry: number;
}

/** Takes a record's next step, unless its plan is no longer `remaining` long (another run or a control call took it). */
export type TakeStep = (kind: ProgressKind, id: string, remaining: number) => Promise<void>;

const keyOf = (kind: ProgressKind, id: string) => `step:${kind}:${id}`;

export class AutoProgress {
  private readonly causes = new Map<string, Cause>();

  constructor(
    private readonly work: DeferredWork,
    /** The delay of the organization's records, read each time a step is scheduled and when it runs. */
    private readonly delayMs: (org: string) => Promise<number | false>,
    private readonly step: TakeStep,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly recovery?: StorageRecovery,
    /** How steps are traced (tracing/, wired by the composition root); not at all when absent. */
    private readonly tracing: StepTracing = NO_STEP_TRACING,
  ) {
    work.handle("progress-step", async (payload) => await this.fire(payload as unknown as StepPayload));
  }

  /**
   * Takes the record's next planned step after its organization's delay (replacing a pending one). Called in the
   * transaction that planned it: the step exists once that commits.
   */
  async schedule(kind: ProgressKind, id: string, org: string, remaining: number): Promise<void> {
    const delay = await this.delayMs(org);
    if (delay === false) return;
    await this.defer({ kind, id, org, remaining, retry: 0 }, delay, this.tracing.cause());
  }

  async cancel(kind: ProgressKind, id: string): Promise<void> {
    await this.work.cancel(keyOf(kind, id));
  }

  private async defer(step: StepPayload, delay: number, cause: Cause): Promise<void> {
    const key = keyOf(step.kind, step.id);
    this.causes.delete(key);
    if (cause !== undefined) this.causes.set(key, cause);
    if (this.causes.size > MAX_CAUSES) this.causes.delete(this.causes.keys().next().value as string);
    await this.work.defer("progress-step", key, { ...step } as unknown as TaskPayload, delay);
  }

  private async fire(step: StepPayload): Promise<void> {
    // Switched off since it was scheduled: the plan stays stored, to be resumed when it is switched on again.
    if ((await this.delayMs(step.org)) === false) return;
    if (step.retry > 0) await this.recovery?.beforeRetry();
    const key = keyOf(step.kind, step.id);
    const cause = this.causes.get(key);
    this.causes.delete(key);
    const span = this.tracing.step(cause, step.kind, step.id);
    try {
      // The step schedules the next one in its own transaction, under this step's span.
      await span.run(async () => await this.step(step.kind, step.id, step.remaining));
      this.recovery?.succeeded();
      span.end(false);
    } catch (error) {
      span.end(true);
      await this.failed(step, error, cause);
    }
  }

  /** A step that failed for want of storage is tried again later; another failure is reported (and, queued, retried). */
  private async failed(step: StepPayload, error: unknown, cause: Cause): Promise<void> {
    const wait = this.recovery?.failed(`automatic step of ${step.kind} ${step.id}`, error, step.retry + 1);
    if (wait !== undefined) {
      await this.defer({ ...step, retry: step.retry + 1 }, wait, cause);
      return;
    }
    this.onError(error);
    // A job queue runs the job again with backoff (PostgreSQL down, a lost connection); a timer cannot.
    if (this.work.durable) throw error;
  }
}
