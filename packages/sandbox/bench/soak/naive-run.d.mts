// Types of naive-run.mjs for the TypeScript tests that import it.
import type { createSandbox } from "../../src/index.js";
import type { SoakOptions } from "./client-run.mjs";

export interface NaiveSoakFigures {
  seed: number;
  runMs: number;
  requests: number;
  faultsFired: Record<string, number>;
  faultsFiredTotal: number;
  failed: { onboardings: number; payouts: number };
  intents: number;
  orders: number;
  intentsPaid: number;
  duplicates: number;
}

export function runNaiveSoak(
  create: typeof createSandbox,
  options: SoakOptions & { arm?: ReadonlyArray<Record<string, unknown>> },
): Promise<NaiveSoakFigures>;
