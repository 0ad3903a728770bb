import { describe, expect, it } from "vitest";
import { SandboxClock } from "../src/domain/clock.js";
import {
  clockOffsetKey,
  settingsKey,
  StoredOrganizationState,
  type RuntimeSettings,
} from "../src/domain/organization-state.js";

const DEFAULTS: RuntimeSettings = { autoProgressMs: 200, duplicateDeliveries: false, quotationTtlSeconds: 300 };

function stateOver(entries: Record<string, string> = {}) {
  const stored = new Map(Object.entries(entries));
  const state = new StoredOrganizationState(DEFAULTS, {
    get: async (key) => stored.get(key),
    set: async (key, value) => void stored.set(key, value),
  });
  return { state, stored };
}

describe("the state of each organization", () => {
  it("starts every organization from the sandbox's settings", async () => {
    const { state } = stateOver();
    expect(await state.settings("a")).toEqual(DEFAULTS);
    expect(await state.settings("b")).toEqual(DEFAULTS);
  });

  it("changes only the organization named, and only the members given", async () => {
    const { state } = stateOver();
    expect(await state.updateSettings("a", { quotationTtlSeconds: 1, autoProgressMs: undefined })).toEqual({
      ...DEFAULTS,
      quotationTtlSeconds: 1,
    });
    await state.updateSettings("a", { autoProgressMs: false });
    expect(await state.settings("a")).toEqual({ ...DEFAULTS, quotationTtlSeconds: 1, autoProgressMs: false });
    expect(await state.settings("b")).toEqual(DEFAULTS);
  });

  it("keeps the changed settings in the storage, where another replica's state over it reads them", async () => {
    const { state, stored } = stateOver();
    await state.updateSettings("a", { autoProgressMs: false });
    const other = new StoredOrganizationState(DEFAULTS, { get: async (key) => stored.get(key), set: async () => {} });
    expect(await other.settings("a")).toEqual({ ...DEFAULTS, autoProgressMs: false });
    expect(stored.get(settingsKey("a"))).toBe('{"autoProgressMs":false}');
  });

  it("reads a stored change member by member, dropping members of the wrong shape", async () => {
    const { state } = stateOver({ [settingsKey("a")]: '{"quotationTtlSeconds":5,"autoProgressMs":"soon"}' });
    expect(await state.settings("a")).toEqual({ ...DEFAULTS, quotationTtlSeconds: 5 });
  });

  it("keeps each organization's clock offset under its own key in the storage", async () => {
    const { state, stored } = stateOver();
    await state.setClockOffsetMs("a", 86_400_000);
    expect(stored.get(clockOffsetKey("a"))).toBe("86400000");
    expect(await state.clockOffsetMs("a")).toBe(86_400_000);
    expect(await state.clockOffsetMs("b")).toBe(0);
  });

  it("starts every organization from the single offset a file of an earlier version holds", async () => {
    const { state } = stateOver({ clock_offset_ms: "60000", [clockOffsetKey("b")]: "5000" });
    expect(await state.clockOffsetMs("a")).toBe(60_000);
    expect(await state.clockOffsetMs("b")).toBe(5_000);
  });

  it("reads the offset from the storage each time, so a write the storage lost is not kept", async () => {
    const { state, stored } = stateOver();
    await state.setClockOffsetMs("a", 1000);
    stored.delete(clockOffsetKey("a"));
    expect(await state.clockOffsetMs("a")).toBe(0);
  });

  it("refuses an offset that is not a whole number of ms", async () => {
    const { state } = stateOver();
    await expect(state.setClockOffsetMs("a", 1.5)).rejects.toThrow(RangeError);
    await expect(state.setClockOffsetMs("a", 1e300)).rejects.toThrow(RangeError);
  });
});

describe("an organization's sandbox clock", () => {
  it("moves that organization's time only", async () => {
    const { state } = stateOver();
    const a = new SandboxClock(state, "a", await state.clockOffsetMs("a"));
    await a.advance(3600);
    const b = new SandboxClock(state, "b", await state.clockOffsetMs("b"));
    expect(await state.clockOffsetMs("a")).toBe(3_600_000);
    expect(a.offsetSeconds).toBe(3600);
    expect(b.offsetSeconds).toBe(0);
    expect(a.nowMs() - b.nowMs()).toBeGreaterThanOrEqual(3_599_000);
  });

  it.each([
    ["a day forward", 86_400, true],
    ["back to 1970", -(Date.now() / 1000) + 60, true],
    ["before 1970", -(Date.now() / 1000) - 60, false],
    ["past the year 9999", 1e12, false],
    ["an infinite amount", Number.POSITIVE_INFINITY, false],
    ["NaN", Number.NaN, false],
  ])("can move %s: %s", async (_what, seconds, allowed) => {
    const { state } = stateOver();
    const clock = new SandboxClock(state, "a", 0);
    expect(clock.canAdvance(seconds)).toBe(allowed);
    if (allowed) expect((await clock.advance(seconds)).getTime()).toBeGreaterThanOrEqual(0);
    else await expect(clock.advance(seconds)).rejects.toThrow(RangeError);
  });
});
