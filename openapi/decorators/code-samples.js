import { readFileSync } from "node:fs";

/**
 * exchange-kit/code-samples (decorator, docs and public bundle)
 *
 * Puts `x-codeSamples` (TypeScript with the client, curl with `exchange-kit sign`) beside every operation, from
 * openapi/code-samples/generated/code-samples.json, which `pnpm generate` writes from the spec's request
 * examples. The samples live in that generated file, not in the hand-written operation files, so an example
 * edit cannot leave a stale sample behind: CI regenerates and fails on a diff.
 */
export function CodeSamples() {
  const samples = JSON.parse(
    readFileSync(new URL("../code-samples/generated/code-samples.json", import.meta.url), "utf8"),
  );
  return {
    Operation: {
      leave(operation) {
        const own = samples[operation.operationId];
        if (Array.isArray(own) && own.length > 0) operation["x-codeSamples"] = own;
      },
    },
  };
}
