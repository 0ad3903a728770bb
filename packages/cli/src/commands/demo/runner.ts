// Runs a table of demo steps in order and stops at the first one whose action or check fails.
import type { DemoReporter } from "./reporter.js";
import type { DemoState, DemoStep } from "./step.js";

/** Runs one step; false when its action or its check threw (the reporter has printed why). */
async function runStep(step: DemoStep, state: DemoState, reporter: DemoReporter): Promise<boolean> {
  const started = performance.now();
  try {
    const value = await step.action(state);
    const elapsedMs = performance.now() - started;
    reporter.passed(step.name, elapsedMs, step.check(value, state));
    return true;
  } catch (error) {
    reporter.failed(step.name, performance.now() - started, error);
    return false;
  }
}

/**
 * Runs `steps` in order until one fails.
 *
 * @example
 * const { steps: ran, failed } = await runSteps(DEMO_STEPS, state, createDemoReporter(out));
 */
export async function runSteps(
  steps: readonly DemoStep[],
  state: DemoState,
  reporter: DemoReporter,
): Promise<{ steps: number; failed: boolean }> {
  let ran = 0;
  for (const step of steps) {
    ran++;
    if (!(await runStep(step, state, reporter))) return { steps: ran, failed: true };
  }
  return { steps: ran, failed: false };
}
