// Requests in arrival order, a few milliseconds of them per turn of the event loop. On PostgreSQL a request's
// transaction holds the event loop for milliseconds (each statement is a round trip the thread waits for), and
// Node runs every request that is ready in one turn before it polls again, accepting one waiting connection per
// poll. Under 100 connections a turn took ~250 ms, so a client that connected during the load waited up to the
// whole run (10 s in the benchmark, past autocannon's timeout) for its first answer. Letting requests in only
// while the turn is younger than `budgetMs` brings the poll round every few milliseconds, and every request
// waits its place in line.

/**
 * @example
 * const turns = new Turnstile();
 * await turns.turn(); // then run the request's transaction
 */
export class Turnstile {
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;

  /**
   * @param budgetMs how long a turn keeps letting callers in (at least one per turn)
   * @param now the clock (tests pass their own)
   */
  constructor(
    private readonly budgetMs = 10,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Resolves when it is this caller's turn: callers in arrival order, while the loop's turn has time left. */
  turn(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  /** Callers still waiting. */
  get length(): number {
    return this.waiting.length;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // An immediate set while immediates run waits for the next turn of the loop.
    setImmediate(() => this.admit(this.now()));
  }

  /**
   * Lets the next caller in, then (in a microtask queued after its own, so once its synchronous work is done)
   * the one after it, until the turn has used its budget: the rest wait for the next turn, after the loop polls.
   */
  private admit(turnStarted: number): void {
    this.waiting.shift()?.();
    if (this.waiting.length === 0) {
      this.scheduled = false;
      return;
    }
    queueMicrotask(() => {
      if (this.now() - turnStarted < this.budgetMs) this.admit(turnStarted);
      else setImmediate(() => this.admit(this.now()));
    });
  }
}
