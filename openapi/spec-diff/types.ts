// Shared types of the spec diff.
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Requests travel from the client to the service; responses and webhook bodies from the service to the client. */
export type Direction = "request" | "response";

/** One difference between two specs, from a client's point of view. */
export interface Change {
  /** The rule that classed it, e.g. `operation-removed` (the steps in steps/, the comparers in schema-rules/). */
  rule: string;
  /** True when a client written against the old spec may fail against the new one. */
  breaking: boolean;
  /** Where: the operation and the member, e.g. `POST /cms/api/v1/customer/create request body: email`. */
  where: string;
  message: string;
  /** Not breaking, but no tool can tell what it does to clients (e.g. a pattern rewritten): a person must look. */
  review?: true;
  /** A change of what a client must send to be let in: listed under its own heading, whatever its verdict. */
  security?: true;
}
