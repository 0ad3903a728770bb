// A replica's writers in one line, in turn, grouped into shared transactions: where a writer runs when it cannot
// read before its turn (optimistic-group.ts: it reads its own writes, runs more than plain reads, or what it read
// changed). Writers run one after the other anyway (they take turns on one lock: pg-database.ts), and on a machine
// where each message between two processes costs as much CPU as the work it carries, a writer's two messages (its
// reads, then its writes and COMMIT) were half of its cost. So a writer that finishes while another waits does not commit: it leaves its writes held and
// hands the open transaction on; the next one's first message carries them, behind a SAVEPOINT of its own, with its
// reads. The last of a group (no one waiting, or GROUP_SIZE reached) commits for all of them. N writers cost N + 1
// messages instead of 2N, and each is answered once the group's COMMIT is.
// A writer whose work fails (a refusal) is rolled back to its savepoint and the group goes on without it. A
// statement that fails spoils the whole transaction: the group is rolled back, and each of its writers runs again
// alone (GroupAborted), where its own failure, if it was its own, is its own again.
import { isUnreachable } from "./pg-errors.js";

/** Writers at most in one group: each waits for the group's COMMIT, so a longer group answers its first later. */
export const GROUP_SIZE = 16;

/** A group's transaction was rolled back by a failure that may not be this writer's: run it again, alone. */
export class GroupAborted extends Error {
  constructor(readonly reason: unknown) {
    super("a writer group's transaction was rolled back: its writers run again, each alone", { cause: reason });
    this.name = "GroupAborted";
  }
}

/** Whether a writer's transaction must run again alone (its group was rolled back). */
export function isGroupAborted(error: unknown): boolean {
  return error instanceof GroupAborted;
}

/**
 * How a group ends for the writers waiting on its COMMIT: the database unreachable is told to each as it is (their
 * requests are answered 503); any other failure sends each to run again alone.
 *
 * @example
 * groupFailure(new PostgresError("duplicate key value", "23505")); // a GroupAborted
 */
export function groupFailure(error: unknown): unknown {
  return isUnreachable(error) ? error : new GroupAborted(error);
}

/**
 * The line: who runs now, who waits, and the open group the next one joins. Its holder runs its work, then either
 * passes the group on (someone waits) or passes the line on empty-handed and commits.
 *
 * @example
 * const group = await line.enter(); // undefined: start a group of your own
 * line.pass(group); // or line.pass(undefined) before committing
 */
export class WriterLine<Group> {
  private running = false;
  private readonly waiting: Array<(group: Group | undefined) => void> = [];

  /** Waits for this writer's turn; answers the open group to join, or undefined to start one. */
  enter(): Promise<Group | undefined> {
    if (this.running) return new Promise((resolve) => this.waiting.push(resolve));
    this.running = true;
    return Promise.resolve(undefined);
  }

  /** How many writers wait for their turn. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** The turn goes to the next writer (with `group` to join, if any), or the line is free. */
  pass(group: Group | undefined): void {
    const next = this.waiting.shift();
    if (next) next(group);
    else this.running = false;
  }
}
