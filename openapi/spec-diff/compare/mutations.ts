// The mutation set of the comparison (mutations.json): one change each to the bundled spec, with the truth a person
// decided and why; and the results recorded for them (results.json).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PatchOperation } from "./json-patch.ts";
import type { Expected, Verdict } from "./verdicts.ts";

export const compareDir = dirname(fileURLToPath(import.meta.url));
export const resultsFile = join(compareDir, "results.json");

export interface Mutation {
  id: string;
  /** What the mutation changes, for the table. */
  change: string;
  expected: Expected;
  why: string;
  patch: PatchOperation[];
}

export interface MutationResult {
  id: string;
  /** The hash of the mutation's patch when measured: a recorded Optic verdict of an edited patch is stale. */
  patch: string;
  ours: Verdict;
  /** The rules our tool reported. */
  rules: string[];
  optic?: Verdict;
}

export interface Results {
  optic: { version: string; measured: string } | null;
  mutations: MutationResult[];
}

/** The mutation set, in table order. */
export function readMutations(): Mutation[] {
  return JSON.parse(readFileSync(join(compareDir, "mutations.json"), "utf8")) as Mutation[];
}

/** The results recorded by the last run of the comparison. */
export function readResults(): Results {
  return JSON.parse(readFileSync(resultsFile, "utf8")) as Results;
}

export const patchHash = (mutation: Mutation) =>
  createHash("sha256").update(JSON.stringify(mutation.patch)).digest("hex").slice(0, 16);
