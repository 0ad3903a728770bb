import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalize, canonicalizeText, MAX_NESTING_DEPTH, parseJson } from "../src/index.js";
import { anyJsonValue, nested } from "./arbitraries.js";
import { hasPython, pythonVersion, runPython, toPythonJson } from "./python.js";
import { jsonText, mutatedJsonText } from "./text-arbitraries.js";

// Each property samples a batch, sends it to one python3 process and
// compares bytes. FUZZ_SEED reproduces a run; FUZZ_SCALE multiplies counts.
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const scale = Number(process.env.FUZZ_SCALE ?? 1);
const sample = <T>(arb: fc.Arbitrary<T>, n: number, offset: number) =>
  fc.sample(arb, { numRuns: Math.round(n * scale), seed: seed + offset });

function firstMismatch<T>(inputs: readonly T[], expected: readonly string[], actual: (x: T) => string) {
  for (let k = 0; k < inputs.length; k++) {
    const got = actual(inputs[k]!);
    if (got !== expected[k]) return { index: k, input: inputs[k], expected: expected[k], got, seed };
  }
  return undefined;
}

describe.skipIf(!hasPython)("canonical bodies agree byte for byte with Python's json.dumps", () => {
  const values = [
    ...sample(anyJsonValue, 9000, 0),
    ...sample(fc.jsonValue(), 1000, 1),
    ...[10, 100, 500, MAX_NESTING_DEPTH].map((d) => nested(d, d)),
  ];
  const python = runPython("value", values.map(toPythonJson));

  it(`matches Python for ${values.length} generated values`, () => {
    expect(firstMismatch(values, python, canonicalize)).toBeUndefined();
  });

  it("reads Python's output back to the same bytes", () => {
    expect(firstMismatch(python, python, (p) => canonicalize(parseJson(p)))).toBeUndefined();
  });

  it("leaves Python's output unchanged when canonicalizing it as text", () => {
    expect(firstMismatch(python, python, canonicalizeText)).toBeUndefined();
  });
});

describe.skipIf(!hasPython)("canonicalizeText agrees with Python's json.loads then json.dumps", () => {
  // Python 3.13 reworded and moved the trailing-comma errors; compare offsets on the version tested here.
  const compareOffsets = Number(pythonVersion) < 313;
  const run = (text: string) => {
    try {
      return "ok " + canonicalizeText(text);
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      const offset = /\(char (\d+)\)$/.exec(e.message)?.[1];
      return compareOffsets ? `err ${offset} ${e.message.replace(/: line \d+ column \d+ \(char \d+\)$/, "")}` : "err";
    }
  };
  const expectFrom = (p: string) => (compareOffsets || !p.startsWith("err") ? p : "err");

  it("produces the same canonical bytes for well-formed text", () => {
    const texts = sample(jsonText, 6000, 2);
    const python = runPython(
      "text",
      texts.map((t) => JSON.stringify(t)),
    ).map(expectFrom);
    expect(python.filter((p) => p.startsWith("ok")).length).toBeGreaterThan(texts.length * 0.99);
    expect(firstMismatch(texts, python, run)).toBeUndefined();
  });

  it("rejects exactly the malformed text Python rejects, at the same offset and with the same message", () => {
    const texts = sample(mutatedJsonText, 4000, 3);
    const python = runPython(
      "text",
      texts.map((t) => JSON.stringify(t)),
    ).map(expectFrom);
    expect(python.some((p) => p.startsWith("exc"))).toBe(false);
    expect(firstMismatch(texts, python, run)).toBeUndefined();
  });
});
