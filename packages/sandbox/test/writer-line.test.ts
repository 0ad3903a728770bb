// The line a replica's writers wait in (writer-line.ts): who runs next and with what, and how a group's failure is
// told to the writers that waited on it.
import { describe, expect, it } from "vitest";
import { PostgresError } from "../src/store/postgres/pg-errors.js";
import { GroupAborted, groupFailure, WriterLine } from "../src/store/postgres/writer-line.js";

describe("the writers' line", () => {
  it("lets the first writer run at once, with no group to join", async () => {
    const line = new WriterLine<string>();
    expect(await line.enter()).toBeUndefined();
    expect(line.waitingCount).toBe(0);
  });

  it("hands the group passed on to the next writer waiting, in the order they came", async () => {
    const line = new WriterLine<string>();
    await line.enter();
    const second = line.enter();
    const third = line.enter();
    expect(line.waitingCount).toBe(2);
    line.pass("group-1");
    expect(await second).toBe("group-1");
    line.pass(undefined);
    expect(await third).toBeUndefined();
    expect(line.waitingCount).toBe(0);
  });

  it("is free again once passed with nobody waiting", async () => {
    const line = new WriterLine<string>();
    await line.enter();
    line.pass(undefined);
    expect(await line.enter()).toBeUndefined();
  });
});

describe("a group's failure, as its waiting writers hear it", () => {
  it.each([
    ["a lost connection", new PostgresError("Connection terminated unexpectedly", undefined), "the error itself"],
    ["a server shutting down", new PostgresError("terminating connection", "57P01"), "the error itself"],
    ["too many connections", new PostgresError("too many clients", "53300"), "the error itself"],
    ["a failed statement", new PostgresError("division by zero", "22012"), "run again alone"],
    ["a deadlock", new PostgresError("deadlock detected", "40P01"), "run again alone"],
    ["a failure of the work", new RangeError("refused"), "run again alone"],
  ])("answers %s with %s", (_what, error, expected) => {
    const heard = groupFailure(error);
    if (expected === "the error itself") expect(heard).toBe(error);
    else expect(heard).toEqual(expect.objectContaining({ name: "GroupAborted", reason: error }));
    expect(heard instanceof GroupAborted).toBe(expected === "run again alone");
  });
});
