// Which answered requests enter an organization's log, as a table; and the bounded count of the refused ones.
import { describe, expect, it } from "vitest";
import { admission, RefusedRequests } from "../../src/request-log/admission.js";

const orgA = { id: "org_a", name: "A", apiKey: "key_a", apiSecret: "secret_a" };
const orgB = { id: "org_b", name: "B", apiKey: "key_b", apiSecret: "secret_b" };

describe("admission", () => {
  it.each([
    ["a request signed for A enters A's log", orgA, "key_a", orgA, { log: orgA }],
    ["a request signed for A naming B's key too enters A's log only", orgA, "key_b", orgB, { log: orgA }],
    ["A's key with a wrong signature is counted for A, not logged", undefined, "key_a", orgA, { refuse: orgA }],
    ["an unknown key is neither logged nor counted", undefined, "key_nobody", undefined, { ignore: true }],
    ["no key at all is neither logged nor counted", undefined, undefined, undefined, { ignore: true }],
  ])("%s", (_name, signedBy, apiKey, keyOrganization, decided) => {
    expect(admission(signedBy, apiKey, keyOrganization)).toEqual(decided);
  });
});

describe("RefusedRequests", () => {
  it("counts per organization with the time of the last one", () => {
    const refused = new RefusedRequests();
    refused.count("org_a", Date.UTC(2026, 0, 1));
    refused.count("org_a", Date.UTC(2026, 0, 2));
    expect(refused.of("org_a")).toEqual({ count: 2, last_at: "2026-01-02T00:00:00.000Z" });
    expect(refused.of("org_b")).toEqual({ count: 0, last_at: null });
  });

  it("keeps at most its bound of counters, forgetting the least recently refused", () => {
    const refused = new RefusedRequests(2);
    refused.count("org_a", 1);
    refused.count("org_b", 2);
    refused.count("org_a", 3);
    refused.count("org_c", 4);
    expect([refused.of("org_a").count, refused.of("org_b").count, refused.of("org_c").count]).toEqual([2, 0, 1]);
  });
});
