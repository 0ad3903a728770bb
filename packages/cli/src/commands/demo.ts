// exchange-kit demo: the whole integration against an embedded sandbox, step by step, as a fintech backend
// would run it: the typed client for calls, a webhook-verify receiver for events. Exits 0 only if every step
// behaved as the interface document says. The steps are a table (demo/steps.ts); demo/reporter.ts prints them.
// The steps (and the sandbox they start) are imported when the command runs, after the Node check (loadSandbox).
import { loadSandbox } from "../sandbox-runtime.js";
import type { Command } from "./command.js";
import { createDemoReporter } from "./demo/reporter.js";
import { runSteps } from "./demo/runner.js";
import type { DemoState } from "./demo/step.js";

/** Stops what the setup steps started, whichever of them ran. */
async function close(state: Partial<DemoState>): Promise<void> {
  const server = state.server;
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await state.sandbox?.close();
}

export const demo: Command = {
  usage: `exchange-kit demo [--json]
  starts the sandbox and a webhook receiver on 127.0.0.1, then: customer, KYC, bank account, payin, payout,
  their signed webhooks (one delivered twice and deduplicated), and the history; exits 0 only if all behaved`,
  options: {},
  async run({ out }) {
    await loadSandbox("demo");
    const { DEMO_STEPS } = await import("./demo/steps.js");
    const reporter = createDemoReporter(out);
    reporter.started();
    const started = performance.now();
    // Filled in by the steps, in order (see DemoState).
    const state = { run: Date.now().toString(36) } as DemoState;
    let outcome: { steps: number; failed: boolean };
    try {
      outcome = await runSteps(DEMO_STEPS, state, reporter);
    } finally {
      await close(state);
    }
    reporter.finished({ ...outcome, elapsedMs: performance.now() - started });
    return outcome.failed ? 1 : 0;
  },
};
