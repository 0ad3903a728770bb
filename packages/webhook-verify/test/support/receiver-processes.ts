import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

// Starting receiver-process.ts as a child process (plain node running the TypeScript sources) and reading
// what its handler journaled.

export interface ReceiverSettings {
  redisUrl: string;
  /** `inbox`: a durable Redis inbox; `dedup`: dedup claims (redisStore), onEvent after the answer. */
  mode: "inbox" | "dedup";
  prefix: string;
  /** The file the handler appends its steps to. */
  journal: string;
  /** The inbox's leaseSeconds, or the deduplicator's claimTtlSeconds. */
  leaseSeconds: number;
  /** How long the handler waits (not blocking). */
  handlerMs?: number;
  /** The handler blocks the event loop until this file exists. */
  blockUntil?: string;
  concurrency?: number;
  pollIntervalMs?: number;
}

export interface JournalLine {
  pid: number;
  step: "started" | "done" | "error";
  id?: string;
  attempt?: number;
  error?: { name: string; message: string };
}

export interface ReceiverProcess {
  url: string;
  pid: number;
  /** Kills it with `signal` (SIGKILL: no cleanup of any kind) and waits for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const SCRIPT = fileURLToPath(new URL("./receiver-process.ts", import.meta.url));
const HOOKS = fileURLToPath(new URL("./ts-hooks.mjs", import.meta.url));
const NODE_FLAGS = ["--conditions=@exchange-kit/source", "--experimental-transform-types", "--no-warnings"];

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
}

/** Starts a receiver process and resolves once it listens; `started` collects it for cleanup. */
export async function startReceiver(settings: ReceiverSettings, started: ReceiverProcess[]): Promise<ReceiverProcess> {
  const args = [...NODE_FLAGS, "--import", HOOKS, SCRIPT, JSON.stringify(settings)];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  const kill = async (signal: NodeJS.Signals = "SIGKILL") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited(child);
  };
  started.push({ url: "", pid: child.pid ?? 0, kill });
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk;
      const line = /^(\{.*\})\n/m.exec(output);
      if (line) resolve((JSON.parse(line[1]!) as { port: number }).port);
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
    child.on("exit", (code) => reject(new Error(`the receiver exited with ${code} before listening:\n${output}`)));
  });
  return { url: `http://127.0.0.1:${port}/webhooks/exchange`, pid: child.pid!, kill };
}

/** Every line journaled so far. */
export function readJournal(path: string): JournalLine[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as JournalLine);
}
