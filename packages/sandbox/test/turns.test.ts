import { describe, expect, it } from "vitest";
import { Turns } from "../src/store/sql.js";

/** Takes a turn; answers whether it was given at once and a promise of when it was given. */
function take(turns: Turns, order: string[], name: string): Promise<void> {
  return Promise.resolve(turns.take()).then(() => {
    order.push(name);
  });
}

describe("turns", () => {
  it("gives one holder at a time by default, the others in the order they came", async () => {
    const turns = new Turns();
    const order: string[] = [];
    const all = [take(turns, order, "a"), take(turns, order, "b"), take(turns, order, "c")];
    await Promise.resolve();
    expect(order).toEqual(["a"]);
    turns.give();
    await all[1];
    expect(order).toEqual(["a", "b"]);
    turns.give();
    await all[2];
    expect(order).toEqual(["a", "b", "c"]);
  });

  it("gives as many holders as its capacity at once, and the next when one gives back", async () => {
    const turns = new Turns(2);
    const order: string[] = [];
    const all = [take(turns, order, "a"), take(turns, order, "b"), take(turns, order, "c")];
    await Promise.all(all.slice(0, 2));
    expect(order).toEqual(["a", "b"]);
    turns.give();
    await all[2];
    expect(order).toEqual(["a", "b", "c"]);
  });

  it("is free again once every holder gave back", () => {
    const turns = new Turns(2);
    turns.take();
    turns.take();
    turns.give();
    turns.give();
    expect(turns.isHeld).toBe(false);
    expect(turns.take()).toBeUndefined();
  });
});
