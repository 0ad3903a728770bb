import { PassThrough } from "node:stream";
import { runCli } from "../src/index.js";

export interface Captured {
  code: Promise<number>;
  stdout(): string;
  stderr(): string;
  /** Resolves with stdout once it contains `text`. */
  waitFor(text: string, timeoutMs?: number): Promise<string>;
  /** Resolves with stderr once it contains `text`. */
  waitForStderr(text: string, timeoutMs?: number): Promise<string>;
  stop(): void;
}

/** Runs the CLI in-process with captured, non-TTY streams and its own stop signal. */
export function run(argv: string[], env: Record<string, string | undefined> = {}): Captured {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (c) => (out += String(c)));
  stderr.on("data", (c) => (err += String(c)));
  const stop = new AbortController();
  const code = runCli(argv, { stdout, stderr, env, signal: stop.signal });
  const until = async (read: () => string, text: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!read().includes(text)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for "${text}"; stdout: ${out}; stderr: ${err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return read();
  };
  return {
    code,
    stdout: () => out,
    stderr: () => err,
    waitFor: (text, timeoutMs = 10_000) => until(() => out, text, timeoutMs),
    waitForStderr: (text, timeoutMs = 10_000) => until(() => err, text, timeoutMs),
    stop: () => stop.abort(),
  };
}
