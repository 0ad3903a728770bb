// The zod schemas agree with an independent JSON Schema 2020-12 validator (Ajv's 2020 build) on a corpus
// generated from the spec: every component's examples and their systematic mutations (support/corpus.ts). A
// disagreement names the component and the value. The count is in the README ("Checked against JSON Schema").
import { describe, expect, it } from "vitest";
import { componentSchemas } from "../src/zod.js";
import { componentJudge, corpusOf } from "./support/corpus.js";
import { examplesByComponent, spec } from "./support/spec.js";

const doc = spec();
const judge = componentJudge(doc);
const examples = examplesByComponent(doc);
const zodOf = componentSchemas as Record<string, { safeParse: (v: unknown) => { success: boolean } }>;
const corpora = [...examples].map(([name, sources]) => [name, corpusOf(sources.map((s) => s.value))] as const);

/** Whether a value holds an integer beyond 2^53 - 1 anywhere. */
const hasUnsafeInteger = (value: unknown): boolean =>
  typeof value === "number"
    ? Number.isInteger(value) && !Number.isSafeInteger(value)
    : value !== null && typeof value === "object" && Object.values(value).some(hasUnsafeInteger);

/**
 * The one deliberate difference: JSON Schema's integer is any number without a fraction, 1e21 included, while
 * z.int() refuses an integer beyond 2^53 - 1, which JSON.parse cannot carry exactly (an ID or a count read wrong).
 */
const deliberate = (v: { value: unknown; jsonSchema: boolean; zod: boolean }) =>
  v.jsonSchema && !v.zod && hasUnsafeInteger(v.value);

/** The values of a component's corpus on which zod and the 2020-12 validator disagree. */
function verdicts(name: string, corpus: readonly unknown[]) {
  return corpus.map((value) => ({ value, jsonSchema: judge(name, value), zod: zodOf[name]!.safeParse(value).success }));
}
const disagreements = (name: string, corpus: readonly unknown[]) =>
  verdicts(name, corpus).filter((v) => v.jsonSchema !== v.zod && !deliberate(v));

describe("the zod schemas against a JSON Schema 2020-12 validator", () => {
  it.each(corpora.filter(([, corpus]) => corpus.length > 0))(
    "agree on every value of the %s corpus",
    (name, corpus) => {
      expect(disagreements(name, corpus)).toEqual([]);
    },
  );

  it("refuse an integer beyond 2^53 - 1 that JSON Schema accepts, and differ nowhere else", () => {
    const differing = corpora.flatMap(([name, corpus]) => verdicts(name, corpus).filter((v) => v.jsonSchema !== v.zod));
    expect(differing.length).toBeGreaterThan(0);
    expect(differing.filter((v) => !deliberate(v))).toEqual([]);
  });

  it("judge a corpus of at least 2,000 values, valid and invalid, over at least 40 components", () => {
    const values = corpora.flatMap(([name, corpus]) => corpus.map((value) => judge(name, value)));
    expect(values.length).toBeGreaterThanOrEqual(2_000);
    expect(values.filter(Boolean).length).toBeGreaterThan(200);
    expect(values.filter((valid) => !valid).length).toBeGreaterThan(1_000);
    expect(corpora.filter(([, corpus]) => corpus.length > 0).length).toBeGreaterThanOrEqual(40);
  });
});
