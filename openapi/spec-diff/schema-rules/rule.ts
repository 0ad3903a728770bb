// What a schema comparer sees: the two schemas at one place (references resolved), which way data travels, and
// how to report a change or compare the schemas nested in them.
import type { Json, JsonObject } from "../types.ts";

export interface SchemaPair {
  oldSchema: JsonObject;
  newSchema: JsonObject;
  /** A readable location: `POST /x request body:` or, inside a component, `request schema Customer:`. */
  at: string;
  /** Requests travel to the service (it may refuse more), responses to the client (it may receive more). */
  request: boolean;
  /** Reports a change at `at` (or at `where`, a member's location). */
  report: (rule: string, breaking: boolean, message: string, where?: string) => void;
  /** Reports a change no rule can class (not breaking, to be reviewed by a person). */
  reportForReview: (rule: string, message: string, where?: string) => void;
  /** Compares two nested schemas (resolving their references) at `where`. */
  compare: (oldRaw: Json | undefined, newRaw: Json | undefined, where: string) => void;
}

/** A comparer of one JSON Schema keyword or keyword family: reports what changed in it, nothing else. */
export type SchemaRule = (pair: SchemaPair) => void;

/** The location of a member of the object at `at`: `at: name` after a label, `at.name` after a member. */
export function memberAt(at: string, name: string): string {
  return at.endsWith(":") ? `${at} ${name}` : `${at}.${name}`;
}
