// The demo's trace: a line per step (a JSON object with --json), then the verdict. Printing only: what ran and
// whether it passed is decided by the runner.
import type { Output } from "../../output.js";

export interface DemoReporter {
  started(): void;
  passed(step: string, elapsedMs: number, detail: string): void;
  failed(step: string, elapsedMs: number, error: unknown): void;
  /** The verdict: `steps` ran, the last one failed when `failed`. */
  finished(outcome: { failed: boolean; steps: number; elapsedMs: number }): void;
}

const NEXT =
  "\nNext, with the installed command (or `npx @exchange-kit/cli <command>`): run the sandbox with\n" +
  "`exchange-kit sandbox`, forward its webhooks to your receiver with `exchange-kit listen --forward-to URL`,\n" +
  "and fire events with `exchange-kit trigger TYPE EVENT --id ID`. Packages: `npm install @exchange-kit/client`\n" +
  "and `npm install @exchange-kit/webhook-verify`; start here: https://exchange-kit.github.io/exchange-kit/latest/guides/getting-started.html";

const milliseconds = (elapsedMs: number) => elapsedMs.toFixed(0).padStart(5);
const errorText = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

export function createDemoReporter(out: Output): DemoReporter {
  return {
    started() {
      out.line(out.bold("exchange-kit demo: a complete integration against the local sandbox\n"));
    },
    passed(step, elapsedMs, detail) {
      const ms = milliseconds(elapsedMs);
      const human = `${out.green("✓")} ${step.padEnd(54)} ${out.dim(`${ms} ms`)}  ${detail}`;
      out.result({ step, ok: true, ms: Number(ms), detail }, human);
    },
    failed(step, elapsedMs, error) {
      const ms = milliseconds(elapsedMs);
      const message = errorText(error);
      const human = `${out.red("✗")} ${step.padEnd(54)} ${out.dim(`${ms} ms`)}  ${out.red(message)}`;
      out.result({ step, ok: false, ms: Number(ms), error: message }, human);
    },
    finished({ failed, steps, elapsedMs }) {
      const total = (elapsedMs / 1000).toFixed(2);
      const verdict = { ok: !failed, steps, seconds: Number(total) };
      if (failed) {
        out.result(verdict, out.red(`\nthe demo failed at step ${steps} (${total} s)`));
        return;
      }
      out.result(verdict, out.green(`\nall ${steps} steps behaved as the interface document says (${total} s)`));
      out.line(out.dim(NEXT));
    },
  };
}
