// Work the sandbox schedules for itself (an automatic step, the record of a webhook delivery attempt) has no
// client to retry it when its transaction fails because the disk is full or failing. Such a failure is
// retried with backoff until it succeeds (or the sandbox closes): logged once when a streak of such failures
// starts and once when storage works again. Before each retry a TRUNCATE checkpoint gives the WAL's space back:
// after a full disk, the WAL cannot shrink by itself, and freed space alone may not be enough.
import type { Logger } from "../logger.js";
import { errorCode } from "./start-errors.js";

export interface StorageBackoff {
  /** Wait before the first retry. */
  initialDelayMs: number;
  /** Each further wait is the previous one times this. */
  factor: number;
  /** Upper bound of one wait: retries go on at this pace until storage works again. */
  maxDelayMs: number;
}

export const DEFAULT_STORAGE_BACKOFF: StorageBackoff = { initialDelayMs: 250, factor: 2, maxDelayMs: 5000 };

/**
 * Whether a failure is one that more disk space (or a working disk) cures: SQLITE_FULL, SQLITE_IOERR (every
 * extended code), or the file system's ENOSPC / EIO.
 *
 * @example
 * try { store.transaction(work); } catch (error) { if (!isOutOfStorage(error)) throw error; retryLater(work); }
 */
export function isOutOfStorage(error: unknown): boolean {
  const code = errorCode(error);
  return code === "SQLITE_FULL" || code === "SQLITE_IOERR" || code === "ENOSPC" || code === "EIO";
}

/**
 * The wait before retry number `attempt` (1 for the first retry).
 *
 * @example
 * backoffDelay({ initialDelayMs: 250, factor: 2, maxDelayMs: 5000 }, 3); // 1000
 */
export function backoffDelay(policy: StorageBackoff, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.factor ** Math.max(0, attempt - 1));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class StorageRecovery {
  private failing = false;
  private failures = 0;

  constructor(
    private readonly checkpoint: () => Promise<void>,
    private readonly logger: Logger,
    readonly backoff: StorageBackoff = DEFAULT_STORAGE_BACKOFF,
  ) {}

  /**
   * Call when `what` failed on its `attempt`-th try: answers how long to wait before trying it again, or
   * undefined when the failure is not about storage (the caller handles it as before).
   */
  failed(what: string, error: unknown, attempt: number): number | undefined {
    if (!isOutOfStorage(error)) return undefined;
    this.failures++;
    if (!this.failing) {
      this.failing = true;
      this.logger.error(
        `${what} failed: ${describe(error)}; retrying it, and any other scheduled work that fails this way, ` +
          `until storage works again (at most ${this.backoff.maxDelayMs} ms apart)`,
      );
    }
    return backoffDelay(this.backoff, attempt);
  }

  /** Before a retry: a TRUNCATE checkpoint, so the WAL gives back its space once the disk has room. */
  async beforeRetry(): Promise<void> {
    try {
      await this.checkpoint();
    } catch {
      // Still no room: the retry that follows fails and says so through failed().
    }
  }

  /** Call when scheduled work has committed: ends a streak of storage failures. */
  succeeded(): void {
    if (!this.failing) return;
    this.logger.info(`storage works again: retried steps are committing (${this.failures} failed attempt(s))`);
    this.failing = false;
    this.failures = 0;
  }
}
