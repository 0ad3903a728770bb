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

export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig["options"]>;
  /** Resolves to the exit code. */
  run(context: CommandContext): Promise<number>;
}
