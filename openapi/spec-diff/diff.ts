// The spec diff: every difference between two bundled OpenAPI 3.1 documents that a client can notice, each
// classed breaking or not. Operations are matched by method and path; an operationId found under another path
// is a moved operation. Webhook bodies travel to the client, so they are compared like responses.
import { compareSchemas, deref, isObject, type SchemaContext } from "./schema-diff.ts";
import type { Change, Direction, Json, JsonObject } from "./types.ts";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

interface Operation {
  label: string;
  method: string;
  path: string;
  operationId: string | undefined;
  operation: JsonObject;
  pathItem: JsonObject;
}

function operationsOf(doc: JsonObject, section: "paths" | "webhooks"): Map<string, Operation> {
  const out = new Map<string, Operation>();
  const items = isObject(doc[section]) ? doc[section] : {};
  for (const [path, rawItem] of Object.entries(items)) {
    const pathItem = deref(doc, rawItem);
    if (!isObject(pathItem)) continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      const label =
        section === "paths" ? `${method.toUpperCase()} ${path}` : `webhook ${path} (${method.toUpperCase()})`;
      const operationId = typeof operation.operationId === "string" ? operation.operationId : undefined;
      out.set(label, { label, method, path, operationId, operation, pathItem });
    }
  }
  return out;
}

function parametersOf(doc: JsonObject, op: Operation): Map<string, JsonObject> {
  const out = new Map<string, JsonObject>();
  const all = [
    ...(Array.isArray(op.pathItem.parameters) ? op.pathItem.parameters : []),
    ...(Array.isArray(op.operation.parameters) ? op.operation.parameters : []),
  ];
  for (const raw of all) {
    const p = deref(doc, raw);
    if (isObject(p) && typeof p.name === "string" && typeof p.in === "string") out.set(`${p.in} ${p.name}`, p);
  }
  return out;
}

function jsonSchemaOf(doc: JsonObject, holder: Json | undefined): Json | undefined {
  const resolved = deref(doc, holder);
  if (!isObject(resolved) || !isObject(resolved.content)) return undefined;
  const media = Object.entries(resolved.content).find(([type]) => /^application\/(.+\+)?json/.test(type));
  return media && isObject(media[1]) ? media[1].schema : undefined;
}

function schemesOf(doc: JsonObject): JsonObject {
  const components = isObject(doc.components) ? doc.components : {};
  return isObject(components.securitySchemes) ? components.securitySchemes : {};
}

/** What a client must send for a scheme (its key in the document is only a name): e.g. `apiKey header X-API-KEY`. */
function schemeShape(doc: JsonObject, scheme: Json | undefined): string {
  const s = deref(doc, scheme);
  if (!isObject(s)) return "undefined scheme";
  return [s.type, s.in, s.name, s.scheme, s.bearerFormat].filter((x) => typeof x === "string").join(" ");
}

/** The effective security of an operation as the alternatives of credentials a client sends, keys resolved. */
function securityOf(doc: JsonObject, op: Operation): string {
  const security = op.operation.security ?? doc.security ?? [];
  const alternatives = Array.isArray(security) ? security : [];
  const schemes = schemesOf(doc);
  return (
    alternatives
      .map((alt) =>
        isObject(alt)
          ? Object.keys(alt)
              .map((k) => schemeShape(doc, schemes[k]))
              .sort()
              .join(" + ")
          : "",
      )
      .sort()
      .join(" | ") || "none"
  );
}

/** Every difference between `oldDoc` and `newDoc`, breaking ones first. */
export function diffSpecs(oldDoc: JsonObject, newDoc: JsonObject): Change[] {
  const changes: Change[] = [];
  const add = (change: Change) => changes.push(change);
  const seen = new Set<string>();
  const context = (direction: Direction): SchemaContext => ({
    oldDoc,
    newDoc,
    direction,
    seen,
    report: ({ at, ...rest }) => add({ ...rest, where: at }),
  });

  for (const section of ["paths", "webhooks"] as const) {
    const webhook = section === "webhooks";
    const olds = operationsOf(oldDoc, section);
    const news = operationsOf(newDoc, section);
    const newById = new Map([...news.values()].filter((o) => o.operationId).map((o) => [o.operationId, o]));
    const oldById = new Map([...olds.values()].filter((o) => o.operationId).map((o) => [o.operationId, o]));
    const pairs: [Operation, Operation][] = [];

    for (const [label, old] of olds) {
      const current = news.get(label);
      if (current) {
        pairs.push([old, current]);
        continue;
      }
      const moved = old.operationId ? newById.get(old.operationId) : undefined;
      if (moved && !olds.has(moved.label)) {
        add({
          rule: "path-changed",
          breaking: true,
          where: old.label,
          message: `${old.operationId} moved to ${moved.label}`,
        });
        pairs.push([old, moved]);
      } else {
        add({
          rule: webhook ? "webhook-removed" : "operation-removed",
          breaking: true,
          where: label,
          message: `${old.operationId ?? "operation"} removed`,
        });
      }
    }
    for (const [label, current] of news) {
      if (olds.has(label)) continue;
      const moved = current.operationId ? oldById.get(current.operationId) : undefined;
      if (moved && !news.has(moved.label)) continue;
      add({
        rule: webhook ? "webhook-added" : "operation-added",
        breaking: false,
        where: label,
        message: `${current.operationId ?? "operation"} added`,
      });
    }

    for (const [old, current] of pairs) {
      const where = current.label;
      if (old.operationId !== current.operationId) {
        add({
          rule: "operation-id-changed",
          breaking: true,
          where,
          message: `operationId ${old.operationId} -> ${current.operationId} (generated names and client methods follow it)`,
        });
      }
      if (!webhook && securityOf(oldDoc, old) !== securityOf(newDoc, current)) {
        add({
          rule: "security-changed",
          breaking: true,
          where,
          message: `security ${securityOf(oldDoc, old)} -> ${securityOf(newDoc, current)}`,
        });
      }
      compareParameters(old, current, where);
      compareBodies(old, current, where, webhook);
      compareResponses(old, current, where, webhook);
    }
  }
  compareSecuritySchemes();
  if (JSON.stringify(oldDoc.servers ?? []) !== JSON.stringify(newDoc.servers ?? [])) {
    // Clients are configured with their base URL; the documented servers are information.
    add({ rule: "servers-changed", breaking: false, where: "servers", message: "the documented servers changed" });
  }

  function compareParameters(old: Operation, current: Operation, where: string) {
    const op = parametersOf(oldDoc, old);
    const np = parametersOf(newDoc, current);
    for (const [key, p] of op) {
      if (!np.has(key))
        add({
          rule: "parameter-removed",
          breaking: true,
          where: `${where} parameter ${key}`,
          message: "parameter removed",
        });
      else {
        const q = np.get(key)!;
        if (p.required !== true && q.required === true) {
          add({
            rule: "parameter-became-required",
            breaking: true,
            where: `${where} parameter ${key}`,
            message: "parameter now required",
          });
        } else if (p.required === true && q.required !== true) {
          add({
            rule: "parameter-became-optional",
            breaking: false,
            where: `${where} parameter ${key}`,
            message: "parameter no longer required",
          });
        }
        compareSchemas(context("request"), p.schema, q.schema, `${where} parameter ${key}:`);
      }
    }
    for (const [key, q] of np) {
      if (op.has(key)) continue;
      const required = q.required === true;
      add({
        rule: required ? "parameter-added-required" : "parameter-added-optional",
        breaking: required,
        where: `${where} parameter ${key}`,
        message: `${required ? "required" : "optional"} parameter added`,
      });
    }
  }

  function compareBodies(old: Operation, current: Operation, where: string, webhook: boolean) {
    // A webhook's request body is what the client receives.
    const direction: Direction = webhook ? "response" : "request";
    const ob = deref(oldDoc, old.operation.requestBody);
    const nb = deref(newDoc, current.operation.requestBody);
    const at = `${where} ${webhook ? "body" : "request body"}`;
    if (ob === undefined && nb === undefined) return;
    if (ob === undefined) {
      const required = isObject(nb) && nb.required === true;
      add({
        rule: required ? "request-body-added-required" : "request-body-added-optional",
        breaking: required && !webhook,
        where: at,
        message: "body added",
      });
      return;
    }
    if (nb === undefined) {
      add({ rule: "request-body-removed", breaking: true, where: at, message: "body removed" });
      return;
    }
    if (!webhook && isObject(ob) && isObject(nb) && ob.required !== true && nb.required === true) {
      add({ rule: "request-body-became-required", breaking: true, where: at, message: "body now required" });
    }
    compareSchemas(context(direction), jsonSchemaOf(oldDoc, ob), jsonSchemaOf(newDoc, nb), `${at}:`);
  }

  function compareResponses(old: Operation, current: Operation, where: string, webhook: boolean) {
    if (webhook) return; // the client's answer to a webhook is not read by anyone the spec describes
    const or = isObject(old.operation.responses) ? old.operation.responses : {};
    const nr = isObject(current.operation.responses) ? current.operation.responses : {};
    for (const status of Object.keys(or)) {
      if (!(status in nr)) {
        const success = status.startsWith("2");
        add({
          rule: "response-removed",
          breaking: success,
          where: `${where} response ${status}`,
          message: "response removed",
        });
        continue;
      }
      compareSchemas(
        context("response"),
        jsonSchemaOf(oldDoc, or[status]),
        jsonSchemaOf(newDoc, nr[status]),
        `${where} response ${status}:`,
      );
    }
    for (const status of Object.keys(nr)) {
      if (!(status in or))
        add({
          rule: "response-added",
          breaking: false,
          where: `${where} response ${status}`,
          message: "response added",
        });
    }
  }

  function compareSecuritySchemes() {
    // Matched by what the client sends: a scheme whose key changed but whose header did not is only renamed.
    const shapes = (doc: JsonObject) =>
      new Map(Object.entries(schemesOf(doc)).map(([k, v]) => [k, schemeShape(doc, v)]));
    const os = shapes(oldDoc);
    const ns = shapes(newDoc);
    const newByShape = new Map([...ns].map(([k, v]) => [v, k]));
    const oldShapes = new Set(os.values());
    for (const [name, shape] of os) {
      const where = `security scheme ${name}`;
      if (ns.get(name) === shape) continue;
      const renamed = newByShape.get(shape);
      if (renamed !== undefined)
        add({ rule: "security-scheme-renamed", breaking: false, where, message: `renamed to ${renamed} (${shape})` });
      else
        add({
          rule: "security-changed",
          breaking: true,
          where,
          message: ns.has(name) ? `${shape} -> ${ns.get(name)}` : `scheme removed (${shape})`,
        });
    }
    for (const [name, shape] of ns) {
      if (!os.has(name) && !oldShapes.has(shape))
        add({
          rule: "security-scheme-added",
          breaking: false,
          where: `security scheme ${name}`,
          message: `scheme added (${shape})`,
        });
    }
  }

  return [...changes.filter((c) => c.breaking), ...changes.filter((c) => !c.breaking)];
}
