import type { ParseArgsConfig } from "node:util";
import type { Output, Streams } from "../output.js";

export interface CommandContext {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  out: Output;
  env: Record<string, string | undefined>;
  streams: Streams;
  /** Aborted on Ctrl-C (or by a test): long-running commands stop and return. */
  signal: AbortSignal;
}

/** A command's module: its usage, its options and what it does (its name and summary are in commands/table.ts). */
export interface Command {
  usage: string;
  options: NonNullable<ParseArgsConfig["options"]>;
  /** Resolves to the exit code. */
  run(context: CommandContext): Promise<number>;
}
