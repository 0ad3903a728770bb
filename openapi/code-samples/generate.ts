// pnpm generate (in openapi/): writes the code samples of the reference from the spec's request examples.
//   generated/code-samples.json   x-codeSamples by operationId (merged into the docs by a Redocly decorator)
//   generated/samples.ts          every TypeScript sample, type-checked by the client's tests
// Committed; CI regenerates and fails on a diff.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { applySandboxOverlay } from "../scripts/overlay.ts";
import { loadSpec, repoRoot, specPath } from "../spec-diff/load.ts";
import { codeSamples, typeCheckModule } from "./samples.ts";

const out = join(dirname(fileURLToPath(import.meta.url)), "generated");
// The samples run against the sandbox, so they are made from the sandbox's spec: it names the query parameters the
// sandbox requires where the interface publishes none (`x-sandbox-parameters`, sent as `extraQuery`).
const spec = await applySandboxOverlay(loadSpec(join(repoRoot, specPath)));
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "code-samples.json"), `${JSON.stringify(codeSamples(spec), null, 2)}\n`);
writeFileSync(join(out, "samples.ts"), typeCheckModule(spec));
console.log(`wrote ${join("openapi", "code-samples", "generated")}: code-samples.json, samples.ts`);
