import * as node from "../src/node.js";
import * as web from "../src/index.js";

/** Both entries, to run the same behaviour tests against node:crypto and Web Crypto. */
export const entries: ReadonlyArray<readonly [string, typeof web]> = [
  ["node entry (node:crypto)", node],
  ["web entry (Web Crypto)", web],
];

export const credentials = { apiKey: "ek_test_key", apiSecret: "ek_test_secret" } as const;
