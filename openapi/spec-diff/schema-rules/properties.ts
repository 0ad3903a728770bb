// `properties` and `required`: members removed, added, made required or optional, and each kept member compared.
// A removed member breaks either way; a member becoming required breaks requests, one becoming optional breaks
// responses (a client may have read it unconditionally).
import { isObject } from "../json.ts";
import type { JsonObject } from "../types.ts";
import { memberAt, type SchemaPair, type SchemaRule } from "./rule.ts";

interface Members {
  before: JsonObject;
  after: JsonObject;
  requiredBefore: Set<string>;
  requiredAfter: Set<string>;
}

const propertiesOf = (schema: JsonObject): JsonObject => (isObject(schema.properties) ? schema.properties : {});
const requiredOf = (schema: JsonObject) => new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
const sideOf = (request: boolean) => (request ? "request" : "response");

function reportRemoved({ at, request, report }: SchemaPair, { before, after }: Members): void {
  for (const name of Object.keys(before)) {
    if (name in after) continue;
    report(`${sideOf(request)}-member-removed`, true, `${sideOf(request)} member removed`, memberAt(at, name));
  }
}

/** e.g. `request-member-added-required`; a response member is only added (whether it is required is reported apart). */
export function addedRuleName(request: boolean, required: boolean): string {
  if (!request) return "response-member-added";
  return required ? "request-member-added-required" : "request-member-added-optional";
}

function reportAdded({ at, request, report }: SchemaPair, { before, after, requiredAfter }: Members): void {
  for (const name of Object.keys(after)) {
    if (name in before) continue;
    const required = requiredAfter.has(name);
    const message = request ? `${required ? "required" : "optional"} request member added` : "response member added";
    report(addedRuleName(request, required), request && required, message, memberAt(at, name));
  }
}

function reportBecameRequired({ at, request, report }: SchemaPair, members: Members): void {
  const { before, after, requiredBefore, requiredAfter } = members;
  for (const name of requiredAfter) {
    // A member that is new is reported as added, with whether it is required.
    if (requiredBefore.has(name) || (name in after && !(name in before))) continue;
    const message = request ? "now required in requests" : "now always present";
    report(`${sideOf(request)}-member-became-required`, request, message, memberAt(at, name));
  }
}

function reportBecameOptional({ at, request, report }: SchemaPair, members: Members): void {
  const { before, after, requiredBefore, requiredAfter } = members;
  for (const name of requiredBefore) {
    // A member that is gone is reported as removed.
    if (requiredAfter.has(name) || (name in before && !(name in after))) continue;
    const message = request ? "no longer required in requests" : "may now be absent from responses";
    report(`${sideOf(request)}-member-became-optional`, !request, message, memberAt(at, name));
  }
}

export const propertiesRule: SchemaRule = (pair) => {
  const members: Members = {
    before: propertiesOf(pair.oldSchema),
    after: propertiesOf(pair.newSchema),
    requiredBefore: requiredOf(pair.oldSchema),
    requiredAfter: requiredOf(pair.newSchema),
  };
  reportRemoved(pair, members);
  reportAdded(pair, members);
  reportBecameRequired(pair, members);
  reportBecameOptional(pair, members);
  for (const name of Object.keys(members.after)) {
    if (name in members.before) pair.compare(members.before[name], members.after[name], memberAt(pair.at, name));
  }
};
