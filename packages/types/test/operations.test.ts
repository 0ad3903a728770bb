import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { operationIndex, operationRoutes } from "../src/index.js";
import { operationSchemas } from "../src/zod.js";
import { deref, facts, listOperations, mediaExamples, mutations, spec } from "./support/spec.js";

const doc = spec();
const operations = listOperations(doc, "paths");

describe("the operation index", () => {
  it("has one entry per operation of the spec, keyed by operationId, in spec order", () => {
    expect(Object.keys(operationIndex)).toEqual(operations.map((o) => o.operation.operationId));
  });

  it.each(operations.map((o) => [o.operation.operationId as string, o] as const))(
    "describes %s as the spec does",
    (id, { key: path, method, operation, pathItem }) => {
      const entry = operationIndex[id as keyof typeof operationIndex];
      const params = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((p: unknown) =>
        deref(doc, p),
      );
      const body = deref(doc, operation.requestBody);
      expect(entry).toEqual({
        operationId: id,
        method,
        path,
        tag: operation.tags[0],
        summary: operation.summary,
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
        queryParams: params.filter((p) => p.in === "query").map((p) => p.name),
        requiredQueryParams: params.filter((p) => p.in === "query" && p.required).map((p) => p.name),
        hasBody: body !== undefined,
        bodyRequired: body?.required === true,
        idempotency: operation["x-idempotency"],
      });
      expect(operation.tags).toHaveLength(1);
      expect(new Set(params.filter((p) => p.in === "path").map((p) => p.name))).toEqual(new Set(entry.pathParams));
    },
  );
});

describe("the route table", () => {
  it("has the operation index's keys, in the same order", () => {
    expect(Object.keys(operationRoutes)).toEqual(Object.keys(operationIndex));
  });

  it("holds tag, path, method, pathParams, queryParams, hasBody and idempotency of every index entry", () => {
    for (const [id, entry] of Object.entries(operationIndex)) {
      const { method, path, tag, pathParams, queryParams, hasBody, idempotency } = entry;
      expect(operationRoutes[id as keyof typeof operationRoutes], id).toEqual([
        tag,
        path,
        method,
        pathParams,
        queryParams,
        hasBody,
        idempotency,
      ]);
    }
  });

  it("classes reads as safe to repeat and EDD saves as unsafe", () => {
    for (const entry of Object.values(operationIndex))
      if (entry.method === "get") expect(entry.idempotency, entry.operationId).toBe("safe");
    expect(operationIndex.savePayinEdd.idempotency).toBe("unsafe");
    expect(operationIndex.initiatePayout.idempotency).toBe("guarded");
  });
});

interface Case {
  label: string;
  schema: z.ZodType;
  jsonSchema: unknown;
  value: unknown;
}

const cases: Case[] = [];
for (const { operation } of operations) {
  const id = operation.operationId as keyof typeof operationSchemas;
  const schemas = operationSchemas[id] as { requestBody?: z.ZodType; responses: Record<string, z.ZodType> };
  const body = deref(doc, operation.requestBody)?.content?.["application/json"];
  for (const ex of mediaExamples(doc, body)) {
    cases.push({
      label: `${id} request example ${ex.name}`,
      schema: schemas.requestBody!,
      jsonSchema: body.schema,
      value: ex.value,
    });
  }
  for (const [status, response] of Object.entries(operation.responses as Record<string, unknown>)) {
    const media = deref(doc, response)?.content?.["application/json"];
    for (const ex of mediaExamples(doc, media)) {
      cases.push({
        label: `${id} ${status} example ${ex.name}`,
        schema: schemas.responses[status]!,
        jsonSchema: media.schema,
        value: ex.value,
      });
    }
  }
}

describe("the operation schemas", () => {
  it("have a request body schema for every operation with a JSON body and a schema for every JSON response", () => {
    for (const { operation } of operations) {
      const schemas = operationSchemas[operation.operationId as keyof typeof operationSchemas] as {
        requestBody?: z.ZodType;
        responses: Record<string, z.ZodType>;
      };
      const body = deref(doc, operation.requestBody)?.content?.["application/json"];
      expect(schemas.requestBody !== undefined, operation.operationId).toBe(body !== undefined);
      const jsonStatuses = Object.entries(operation.responses as Record<string, unknown>)
        .filter(([, r]) => deref(doc, r)?.content?.["application/json"])
        .map(([s]) => s);
      expect(Object.keys(schemas.responses), operation.operationId).toEqual(jsonStatuses);
    }
  });

  it("are checked against at least one example per operation", () => {
    for (const { operation } of operations) {
      expect(
        cases.some((c) => c.label.startsWith(`${operation.operationId} `)),
        operation.operationId,
      ).toBe(true);
    }
  });

  it.each(cases.map((c) => [c.label, c] as const))("accept the %s and return it unchanged", (_label, c) => {
    const result = c.schema.safeParse(c.value);
    expect(result.error?.issues).toBeUndefined();
    expect(result.data).toEqual(c.value);
  });

  const rejected = cases.flatMap((c) =>
    mutations(facts(doc, c.jsonSchema), c.value).map((m) => ({
      label: `${c.label} with ${m.description}`,
      schema: c.schema,
      value: m.value,
    })),
  );
  it.each(rejected.map((r) => [r.label, r] as const))("reject the %s", (_label, r) => {
    expect(r.schema.safeParse(r.value).success).toBe(false);
  });
});
