import { describe, expect, it } from "vitest";
import { changeChannelOf, decodeChanges, encodeChanges } from "../../src/store/postgres/change-feed.js";

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

  it("gives each sandbox schema a channel of its own", () => {
    expect(changeChannelOf("team_a")).not.toBe(changeChannelOf("team_b"));
  });
});
