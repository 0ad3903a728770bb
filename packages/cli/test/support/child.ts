// The built cli (or any script) run in a child process: its output captured, waited for line by line, and killed
// with SIGKILL when the test is done with it.
import { type ChildProcess, spawn } from "node:child_process";

export interface Child {
  readonly process: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
  /** Resolves with the first stdout line that contains `text`. */
  line(text: string, timeoutMs?: number): Promise<string>;
  kill(): Promise<void>;
}

export function startChild(command: string, args: string[], env: Record<string, string | undefined> = {}): Child {
  const child = spawn(command, args, { env: { PATH: process.env.PATH, NO_COLOR: "1", ...env } });
  let out = "";
  let err = "";
  child.stdout!.on("data", (chunk) => (out += String(chunk)));
  child.stderr!.on("data", (chunk) => (err += String(chunk)));
  const exited = new Promise<number | string>((resolve) =>
    child.once("close", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  return {
    process: child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async line(text, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = out.split("\n").find((l) => l.includes(text));
        if (found !== undefined) return found;
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`no line with "${text}"; stdout: ${out}; stderr: ${err}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

/** Runs a command to its end: exit code, stdout, stderr. */
export async function runChild(command: string, args: string[], env: Record<string, string | undefined> = {}) {
  const child = startChild(command, args, env);
  const code = await child.exited;
  return { code, stdout: child.stdout(), stderr: child.stderr() };
}
