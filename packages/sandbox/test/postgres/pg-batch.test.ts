import pg from "pg";
import { describe, expect, it } from "vitest";
import { HeldStatements, inlineValues, sqlLiteral, UnfinishedReads } from "../../src/store/postgres/pg-batch.js";
import { PostgresError } from "../../src/store/postgres/pg-errors.js";

describe("values written into a statement's text", () => {
  it.each([
    ["null", null, "NULL"],
    ["a plain string", "abc", "'abc'"],
    ["a quote", "O'Brien", "'O''Brien'"],
    ["a backslash", "a\\b", " E'a\\\\b'"],
    ["a number", 42, "'42'"],
    ["a decimal string, kept exact", "0.1000000000000000055511151231257827", "'0.1000000000000000055511151231257827'"],
    ["JSON with a quote and an escaped newline", '{"a":"it\'s\\n"}', " E'{\"a\":\"it''s\\\\n\"}'"],
    ["a real newline", "a\nb", "'a\nb'"],
  ])("writes %s as a literal", (_what, value, literal) => {
    expect(sqlLiteral(value)).toBe(literal);
  });

  it("writes every string as node-postgres's escapeLiteral does", () => {
    const pieces = ["a", "'", "\\", '"', "é", "🦊", " ", "E'", "$1", "\n", "''", "\\'"];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let n = 0; n < 2000; n++) {
      const text = Array.from({ length: next() % 12 }, () => pieces[next() % pieces.length]).join("");
      expect(sqlLiteral(text)).toBe(pg.escapeLiteral(text));
    }
  });

  it("refuses U+0000 as PostgreSQL refuses it in a bound value", () => {
    expect(() => sqlLiteral("a\u0000b")).toThrowError(PostgresError);
    try {
      sqlLiteral("a\u0000b");
    } catch (error) {
      expect((error as PostgresError).code).toBe("22021");
    }
  });

  it.each([
    [
      "each placeholder by its number",
      "UPDATE t SET a = $2 WHERE id = $1",
      ["x", 7],
      "UPDATE t SET a = '7' WHERE id = 'x'",
    ],
    [
      "$10 as the tenth, not the first and a zero",
      "VALUES ($1, $10)",
      ["a", 2, 3, 4, 5, 6, 7, 8, 9, "j"],
      "VALUES ('a', 'j')",
    ],
    ["nothing inside a quoted string", "SELECT '$1', $1", ["v"], "SELECT '$1', 'v'"],
    ["a value that looks like a placeholder as text", "VALUES ($1, $2)", ["$2", "b"], "VALUES ('$2', 'b')"],
    ["a statement without values as it is", "COMMIT", [], "COMMIT"],
  ])("replaces %s", (_what, text, values, inlined) => {
    expect(inlineValues(text, values as Array<string | number | null>)).toBe(inlined);
  });

  it("refuses a placeholder without its value", () => {
    expect(() => inlineValues("VALUES ($1, $2)", ["a"])).toThrowError(RangeError);
  });
});

/** A held read that remembers what it was given. */
function heldRead() {
  const got: { rows?: unknown[]; error?: unknown } = {};
  return {
    got,
    read: { deliver: (rows: unknown[]) => (got.rows = rows), fail: (error: unknown) => (got.error = error) },
  };
}

describe("what a transaction holds back", () => {
  it("sends its BEGIN with the first statement", () => {
    const held = new HeldStatements(["BEGIN", "SELECT pg_advisory_xact_lock(1)"]);
    expect(held.started).toBe(false);
    expect(held.message("SELECT 1").text).toBe("BEGIN;\nSELECT pg_advisory_xact_lock(1);\nSELECT 1");
    expect(held.started).toBe(true);
    expect(held.waiting).toBe(false);
  });

  it("sends held writes, in order, with the next statement", () => {
    const held = new HeldStatements(["BEGIN"]);
    held.message("SELECT 1");
    held.hold("INSERT INTO a VALUES ('1')");
    held.hold("INSERT INTO b VALUES ('2')");
    expect(held.message("COMMIT").text).toBe("INSERT INTO a VALUES ('1');\nINSERT INTO b VALUES ('2');\nCOMMIT");
  });

  it("has nothing to commit when no statement ran", () => {
    expect(new HeldStatements(["BEGIN"]).worthCommitting).toBe(false);
  });

  it("has nothing to commit when only reads asked ahead are held", () => {
    const held = new HeldStatements(["BEGIN"]);
    held.hold("SELECT 1", heldRead().read);
    expect(held.worthCommitting).toBe(false);
  });

  it("commits writes that were only held", () => {
    const held = new HeldStatements(["BEGIN"]);
    held.hold("INSERT INTO a VALUES ('1')");
    expect(held.worthCommitting).toBe(true);
    expect(held.message("COMMIT").text).toBe("BEGIN;\nINSERT INTO a VALUES ('1');\nCOMMIT");
  });

  it("hands a read asked ahead the rows of its own statement in the message", () => {
    const held = new HeldStatements(["BEGIN", "SELECT lock"]);
    const { got, read } = heldRead();
    held.hold("SELECT key FROM meta", read);
    const message = held.message("SELECT json FROM customer");
    expect(held.holds(read)).toBe(false);
    message.deliver([{ rows: [] }, { rows: [{ locked: 1 }] }, { rows: [{ key: "k" }] }, { rows: [{ json: "{}" }] }]);
    expect(got.rows).toEqual([{ key: "k" }]);
  });

  it("tells a read asked ahead that its message failed", () => {
    const held = new HeldStatements(["BEGIN"]);
    const { got, read } = heldRead();
    held.hold("SELECT 1", read);
    const failure = new Error("connection lost");
    held.message().fail(failure);
    expect(got.error).toBe(failure);
  });
});

describe("connections given back with a read still open", () => {
  it("are ended by their next taker, once, not by the timer", async () => {
    const unfinished = new UnfinishedReads<object>(5);
    const client = {};
    let ended = 0;
    unfinished.leave(client, () => ended++);
    expect(unfinished.take(client)).toBe(true);
    expect(unfinished.take(client)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ended).toBe(0);
  });

  it("are ended on their own when nobody takes them", async () => {
    const unfinished = new UnfinishedReads<object>(1);
    const client = {};
    const ended = new Promise<void>((resolve) => unfinished.leave(client, resolve));
    await ended;
    expect(unfinished.take(client)).toBe(false);
  });

  it("have nothing to end when they were given back closed", () => {
    expect(new UnfinishedReads<object>().take({})).toBe(false);
  });
});
