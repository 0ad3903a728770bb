import { describe, expect, it } from "vitest";
import { Turnstile } from "../../src/http/turnstile.js";

/** Resolves after `turns` turns of the event loop. */
async function turnsOfTheLoop(turns: number): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** A clock that moves only when told to. */
function manualClock() {
  let ms = 0;
  return { now: () => ms, advance: (by: number) => (ms += by) };
}

describe("the turnstile in front of requests on PostgreSQL", () => {
  it("lets callers in in the order they arrived", async () => {
    const turns = new Turnstile(10);
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4, 5].map((n) => turns.turn().then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3, 4, 5]);
  });

  it("lets every waiting caller in within one turn while the turn's budget lasts", async () => {
    const clock = manualClock();
    const turns = new Turnstile(10, clock.now);
    let admitted = 0;
    for (let i = 0; i < 4; i++) void turns.turn().then(() => admitted++);
    await turnsOfTheLoop(2);
    expect(admitted).toBe(4);
    expect(turns.length).toBe(0);
  });

  it("leaves the rest for the next turn once a turn's work has used its budget", async () => {
    const clock = manualClock();
    const turns = new Turnstile(10, clock.now);
    const admittedAt: number[] = [];
    let turn = 0;
    const ticker = (): void => {
      turn++;
      if (turn < 20) setImmediate(ticker);
    };
    setImmediate(ticker);
    for (let i = 0; i < 3; i++)
      void turns.turn().then(() => {
        admittedAt.push(turn);
        clock.advance(6); // each caller's transaction takes 6 ms: two fit in a 10 ms turn only if the first took < 10
      });
    await turnsOfTheLoop(10);
    // The first two share a turn (6 ms < 10 ms when the second is let in); the third waits for the next turn.
    expect(admittedAt[0]).toBe(admittedAt[1]);
    expect(admittedAt[2]).toBeGreaterThan(admittedAt[1]!);
  });

  it("lets one caller in per turn when the budget is zero", async () => {
    const turns = new Turnstile(0);
    let admitted = 0;
    for (let i = 0; i < 3; i++) void turns.turn().then(() => admitted++);
    await turnsOfTheLoop(1);
    expect(admitted).toBeLessThan(3);
    await turnsOfTheLoop(4);
    expect(admitted).toBe(3);
  });
});
