// Writers that read before their turn, together. On a machine where a message between two processes costs as much
// CPU as the work it carries, what a writer costs is its messages. So the writers a replica starts at once form a
// group on one connection: their reads go in shared messages (rounds), at READ COMMITTED and without the writers'
// lock, each row answered with its digest (read-check.ts); each writer decides on what it read, its writes held.
// Once every writer of the group is done, one message takes the lock and, writer after writer in the order they
// joined, checks that each read still answers the same rows, then runs its writes; then COMMIT. A check that fails
// fails the message, and nothing of the group is kept: its writers run again in the line (writer-line.ts). Had each
// run whole at its place in that message, it would have read the same rows and written the same: the writers stay
// serial, a group costs two messages or a few instead of one or two per writer, and the lock is held for one
// message's work in the database only.
// A writer that must write before it reads on, or runs a statement that is not a plain read, cannot wait for that
// message: it leaves the group (NeedsTurn) and runs again in the line.
import type { HeldStatements } from "./pg-batch.js";
import { digestRead, isReadChanged, ReadSet } from "./read-check.js";
import { groupFailure } from "./writer-line.js";

/** Writers at most in one group. */
export const OPTIMISTIC_GROUP_SIZE = 32;

/** A writer that cannot run before its turn (a write it reads back, a statement not a plain read): run it in line. */
export class NeedsTurn extends Error {
  constructor(readonly statement: string) {
    super("this writer reads what it wrote, or runs more than plain reads: it runs again in the writers' line");
    this.name = "NeedsTurn";
  }
}

/** Whether a writer must run again in the writers' line. */
export function needsTurn(error: unknown): boolean {
  return error instanceof NeedsTurn;
}

/** How the group talks to its connection. */
export interface GroupWire {
  /** Sends one message; answers each statement's rows, in order. */
  send(text: string): Promise<ReadonlyArray<{ rows: Array<Record<string, unknown>> }>>;
  /** Rolls back what the group began; answers the connection's own failure, if it has one. */
  rollback(error: unknown): Promise<Error | undefined>;
  /** Gives the connection back (closed instead when broken). */
  release(broken?: Error): void;
}

/** A writer of the group: what it read, what it holds to write, how it ended. */
export interface GroupMember {
  readonly reads: ReadSet;
  readonly writes: HeldStatements;
  /** Why it must run again in line, once told so: its work may have caught the error, its answer still does not count. */
  mustLeave?: NeedsTurn;
  ended?: "done" | "refused" | "left";
  settle?: { resolve: () => void; reject: (error: unknown) => void };
}

interface PendingRead {
  readonly member: GroupMember;
  readonly text: string;
  readonly deliver: (rows: Array<Record<string, unknown>>) => void;
  readonly fail: (error: unknown) => void;
}

/**
 * One group: its members, the round of reads gathering for the next message, and its end.
 *
 * @example
 * const member = group.join(new HeldStatements([]));
 * const rows = await group.read(member, "SELECT json FROM customer WHERE id = '7'");
 * await group.end(member, "done"); // resolves once the group committed
 */
export class OptimisticGroup {
  private readonly members: GroupMember[] = [];
  private round: PendingRead[] = [];
  private scheduled = false;
  private begun = false;
  private closedToJoin = false;
  private running = 0;
  private finished = false;
  private failure: unknown;
  /** The rounds, one after the other on the connection. */
  private sending: Promise<void> = Promise.resolve();

  /**
   * @param begin the statements that open the group's transaction (sent with its first message)
   * @param turn the statements that take the writers' lock (first in its last message)
   */
  constructor(
    private readonly wire: GroupWire,
    private readonly begin: readonly string[],
    private readonly turn: readonly string[],
  ) {}

  /** Whether a writer may still join (its first reads have not gone, nobody has ended, it is not full). */
  get open(): boolean {
    return !this.closedToJoin && this.members.length < OPTIMISTIC_GROUP_SIZE;
  }

  /** A new member; `writes` holds what it writes until the group's last message. */
  join(writes: HeldStatements): GroupMember {
    const member: GroupMember = { reads: new ReadSet(), writes };
    this.members.push(member);
    this.running++;
    return member;
  }

  /** A plain read of `member` (its values written in): its rows come with the round's answer. */
  read(member: GroupMember, text: string): Promise<Array<Record<string, unknown>>> {
    const rows = this.enqueue(member, text);
    this.schedule();
    return rows;
  }

  /** A read asked ahead: it goes with the next round; the function answers its rows (sending the round if due). */
  ahead(member: GroupMember, text: string): () => Promise<unknown[]> {
    const rows = this.enqueue(member, text);
    rows.catch(() => {});
    return async () => {
      this.schedule();
      return await rows;
    };
  }

  private enqueue(member: GroupMember, text: string): Promise<Array<Record<string, unknown>>> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((deliver, fail) => {
      this.round.push({ member, text, deliver: (rows) => deliver(member.reads.record(text, rows)), fail });
    });
  }

  /** The round goes once the members that can add to it have (the end of this turn of the event loop). */
  private schedule(): void {
    if (this.scheduled || this.round.length === 0) return;
    this.scheduled = true;
    setImmediate(() => this.sendRound());
  }

  private sendRound(): void {
    this.scheduled = false;
    // Reads asked ahead that nobody waited for, left when every member had ended: never sent, never checked.
    if (this.finished) return;
    this.closedToJoin = true;
    const reads = this.round;
    this.round = [];
    if (reads.length === 0) return;
    const opening = this.begun ? [] : this.begin;
    this.begun = true;
    const text = [...opening, ...reads.map((read) => digestRead(read.text))].join(";\n");
    this.sending = this.sending.then(async () => {
      try {
        const results = await this.wire.send(text);
        for (const [i, read] of reads.entries()) read.deliver(results[opening.length + i]?.rows ?? []);
      } catch (error) {
        this.failure ??= error;
        for (const read of reads) read.fail(error);
      }
    });
  }

  /**
   * `member` ended: "done" (its writes go), "refused" (its work failed: nothing of it is written, but its reads are
   * checked, as its answer rests on them) or "left" (NeedsTurn: it runs again in line, nothing of it counts).
   * Resolves once the group committed, or rejects with why each member runs again (or the database's failure).
   */
  end(member: GroupMember, how: "done" | "refused" | "left"): Promise<void> {
    member.ended = how;
    this.closedToJoin = true;
    this.running--;
    const settled =
      how === "left"
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => (member.settle = { resolve, reject }));
    if (this.running === 0) {
      // No round goes after this (reads asked ahead and never waited for are dropped): the last message follows
      // the rounds already on their way, on the connection they use.
      this.finished = true;
      for (const read of this.round) read.fail(new Error("dropped: every writer of its group ended"));
      this.round = [];
      void this.sending.then(() => this.finish());
    }
    return settled;
  }

  /** Every member ended: the last message (the lock, each member's checks and writes, COMMIT), or the rollback. */
  private async finish(): Promise<void> {
    const counted = this.members.filter((member) => member.ended !== "left");
    if (this.failure !== undefined) return await this.abandon(this.failure, counted);
    const statements = counted.flatMap((member) => [
      ...member.reads.checks(),
      ...(member.ended === "done" ? heldText(member.writes) : []),
    ]);
    if (!this.begun && statements.length === 0) {
      this.wire.release();
      for (const member of counted) member.settle?.resolve();
      return;
    }
    const opening = this.begun ? [] : this.begin;
    try {
      await this.wire.send([...opening, ...this.turn, ...statements, "COMMIT"].join(";\n"));
    } catch (error) {
      return await this.abandon(error, counted);
    }
    this.wire.release();
    for (const member of counted) member.settle?.resolve();
  }

  /** Rolls the group back: each member hears why it runs again (or that the database is down). */
  private async abandon(error: unknown, counted: readonly GroupMember[]): Promise<void> {
    this.wire.release(this.begun ? await this.wire.rollback(error) : undefined);
    // A read changed before the turn: each member runs again in the line, where it reads under the lock.
    const heard = isReadChanged(error) ? new NeedsTurn("a read changed before the writers' turn") : groupFailure(error);
    for (const member of counted) member.settle?.reject(heard);
  }
}

/** The statements `writes` holds, as one text (none when it holds nothing). */
function heldText(writes: HeldStatements): string[] {
  if (!writes.waiting) return [];
  return [writes.message().text];
}
