import { describe, expect, it } from "vitest";
import {
  changeChannelOf,
  changeNotifications,
  decodeChanges,
  encodeChanges,
} from "../../src/store/postgres/change-feed.js";

describe("the changes replicas tell each other", () => {
  it.each([
    [
      "another replica's changes",
      "other\nCUSTOMER org-a\nrequests org-b",
      [
        { kind: "CUSTOMER", org: "org-a" },
        { kind: "requests", org: "org-b" },
      ],
    ],
    ["this replica's own notification", "self\nCUSTOMER org-a", []],
    ["a line without an organization", "other\nCUSTOMER\n org-a\nBANK org-c", [{ kind: "BANK", org: "org-c" }]],
    ["a notification with no changes", "other", []],
  ])("reads %s", (_what, payload, changes) => {
    expect(decodeChanges("self", payload)).toEqual(changes);
  });

  it("reads back what it encodes", () => {
    expect(decodeChanges("b", encodeChanges("a", ["PAYIN org-1", "requests org-2"]))).toEqual([
      { kind: "PAYIN", org: "org-1" },
      { kind: "requests", org: "org-2" },
    ]);
  });

  it("sends changes that fit one notification in one", () => {
    expect(changeNotifications("r1", ["customer org-1", "requests org-1"])).toEqual([
      "r1\ncustomer org-1\nrequests org-1",
    ]);
  });

  it("splits changes that do not fit one notification, losing none", () => {
    const changes = Array.from({ length: 500 }, (_, i) => `customer org-${String(i).padStart(36, "0")}`);
    const messages = changeNotifications("r1", changes);
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) expect(Buffer.byteLength(message)).toBeLessThanOrEqual(7500);
    const heard = messages.flatMap((message) => decodeChanges("r2", message).map((c) => `${c.kind} ${c.org}`));
    expect(heard).toEqual(changes);
  });

  it("sends no notification when nothing changed", () => {
    expect(changeNotifications("r1", [])).toEqual([]);
  });

  it("gives each sandbox schema a channel of its own", () => {
    expect(changeChannelOf("team_a")).not.toBe(changeChannelOf("team_b"));
  });
});
