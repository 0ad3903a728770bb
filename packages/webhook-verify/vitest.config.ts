import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const source = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url));

export default defineConfig({
  resolve: {
    // The examples import the package by name, as users do; run them against the sources.
    alias: [
      { find: /^@exchange-kit\/webhook-verify$/, replacement: source("index.ts") },
      { find: /^@exchange-kit\/webhook-verify\/(node|redis|zod)$/, replacement: source("$1.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
