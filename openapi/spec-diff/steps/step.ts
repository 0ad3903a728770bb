// What a step of the spec diff sees: both documents, where changes go, and the schema comparison.
import type { Operation } from "../operations.ts";
import type { Change, Direction, Json, JsonObject } from "../types.ts";

export interface DiffContext {
  oldDoc: JsonObject;
  newDoc: JsonObject;
  add: (change: Change) => void;
  /** Compares two schemas as data travelling in `direction` (each shared component once per direction). */
  compareSchemas: (direction: Direction, oldRaw: Json | undefined, newRaw: Json | undefined, at: string) => void;
}

/** An operation of the old document and the one it became (same method and path, or moved). */
export interface OperationPair {
  old: Operation;
  current: Operation;
  /** The current operation's label: where its changes are reported. */
  where: string;
  /** A webhook: its body travels to the client, and nobody the spec describes reads the answer. */
  webhook: boolean;
}

/** A step over one pair of operations. */
export type OperationStep = (ctx: DiffContext, pair: OperationPair) => void;

/** A step over the documents as a whole. */
export type DocumentStep = (ctx: DiffContext) => void;
