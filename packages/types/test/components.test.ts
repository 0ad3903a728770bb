import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { componentSchemas } from "../src/zod.js";
import {
  examplesByComponent,
  facts,
  isObject,
  mutations,
  spec,
  standaloneMutations,
  type ExampleSource,
} from "./support/spec.js";

const doc = spec();
const schemas = doc.components.schemas as Record<string, unknown>;
const names = Object.keys(schemas);
const byComponent = examplesByComponent(doc);
const zodFor = (name: string) => (componentSchemas as Record<string, z.ZodType>)[name]!;

function unique(list: ExampleSource[]): ExampleSource[] {
  const seen = new Set<string>();
  return list.filter((e) => {
    const key = JSON.stringify(e.value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

describe("the zod schemas of the component schemas", () => {
  it("exist for every component schema of the spec, and only for those", () => {
    expect(Object.keys(componentSchemas)).toEqual(names);
  });

  it("cover every component with at least one example or one mutation", () => {
    for (const name of names) {
      const examples = byComponent.get(name) ?? [];
      const f = facts(doc, schemas[name]);
      const count =
        examples.length > 0 ? examples.flatMap((e) => mutations(f, e.value)).length : standaloneMutations(f).length;
      expect(count, name).toBeGreaterThan(0);
    }
  });
});

describe.each(names)("the %s schema", (name) => {
  const schema = zodFor(name);
  const f = facts(doc, schemas[name]);
  const examples = unique(byComponent.get(name) ?? []);
  const rejected =
    examples.length > 0
      ? examples.flatMap((e) => mutations(f, e.value).map((m) => ({ ...m, where: e.where })))
      : standaloneMutations(f).map((m) => ({ ...m, where: "no example" }));
  const seen = new Set<string>();
  const distinct = rejected.filter((m) => {
    const key = JSON.stringify([m.description, m.value]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });

  if (examples.length > 0) {
    it.each(examples.map((e) => [e.where, e.value] as const))(
      "accepts the example from %s and returns it unchanged",
      (_where, value) => {
        const result = schema.safeParse(value);
        expect(result.error?.issues).toBeUndefined();
        expect(result.data).toEqual(value);
      },
    );
  }

  it("has at least one mutation of its examples to reject", () => {
    expect(distinct.length).toBeGreaterThan(0);
  });

  it.each(distinct.map((m) => [m.description, m.where, m.value] as const))(
    "rejects the example with %s (%s)",
    (_d, _w, value) => {
      expect(schema.safeParse(value).success).toBe(false);
    },
  );

  const objectExample = examples.find((e) => isObject(e.value));
  if (objectExample) {
    it("keeps members the spec does not declare instead of stripping them, where the object is open", () => {
      const value = { ...(objectExample.value as object), x_unknown_member: { kept: true } };
      const result = schema.safeParse(value);
      // An object schema closed by `additionalProperties` (a schema or false) may reject the member; it never strips it.
      if (result.success) expect(result.data).toEqual(value);
    });
  }
});
