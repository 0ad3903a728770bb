// "Did you mean": the closest known name within a third of what was typed, case ignored; nothing when no name is
// that close (a far guess points at the wrong thing).
import { describe, expect, it } from "vitest";
import { closestName, editDistance } from "../src/did-you-mean.js";

const KNOWN = ["createCustomer", "getCustomer", "listCustomers", "initiatePayout", "initiatePayin"];

describe("closestName", () => {
  it.each<[string, string | undefined]>([
    ["createCustomr", "createCustomer"],
    ["CreateCustomer", "createCustomer"],
    ["getcustomer", "getCustomer"],
    ["listCustomer", "listCustomers"],
    ["initiatePayot", "initiatePayout"],
    ["initiatePayins", "initiatePayin"],
    ["payout", undefined],
    ["zzzzzzzzzzzz", undefined],
  ])("%s → %s", (typed, expected) => {
    expect(closestName(typed, KNOWN)).toBe(expected);
  });
});

describe("editDistance", () => {
  it.each<[string, string, number]>([
    ["", "", 0],
    ["abc", "abc", 0],
    ["abc", "ABC", 0],
    ["abc", "ab", 1],
    ["kitten", "sitting", 3],
  ])("%s to %s is %i", (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
  });
});
