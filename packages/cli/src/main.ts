import { parseArgs } from "node:util";
import type { Command } from "./commands/command.js";
import { COMMANDS, type CommandEntry } from "./commands/table.js";
import { CommandFailure, createOutput, type Output, type Streams, UsageError } from "./output.js";
import { listenFailure } from "./system-errors.js";
import { cliVersion } from "./version.js";

export interface RunOptions extends Partial<Streams> {
  /** Aborting it stops long-running commands (sandbox, listen); the binary wires it to Ctrl-C. */
  signal?: AbortSignal;
}

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    "exchange-kit <command> [options] [--json]",
    "exchange-kit --version",
    "",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "exchange-kit <command> --help shows the options of a command.",
    "Exit codes (every command): 0 ok, 1 failure (e.g. an invalid signature, the sandbox unreachable), 2 usage error.",
  ].join("\n");
}

/** What a command threw, printed: a usage error with the usage (exit 2), anything else on one line (exit 1). */
function reportFailure(error: unknown, out: Output, command: Command): number {
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    out.error("USAGE", `${(error as Error).message}\n\n${command.usage}`);
    return 2;
  }
  const failure = listenFailure(error) ?? error;
  out.error(failure instanceof CommandFailure ? failure.code : "FAILED", (failure as Error).message);
  return 1;
}

/** Loads the command's module, then shows its usage (--help) or runs it with the parsed arguments. */
async function runCommand(entry: CommandEntry, args: string[], out: Output, options: RunOptions, streams: Streams) {
  const command = await entry.load();
  if (args.includes("--help") || args.includes("-h")) {
    streams.stdout.write(`${entry.summary}\n\n${command.usage}\n`);
    return 0;
  }
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...command.options, json: { type: "boolean" } },
      allowPositionals: true,
      strict: true,
    });
    return await command.run({
      values: values as Record<string, string | boolean | undefined>,
      positionals,
      out,
      env: streams.env,
      streams,
      signal: options.signal ?? new AbortController().signal,
    });
  } catch (error) {
    return reportFailure(error, out, command);
  }
}

/**
 * Runs the CLI with these arguments and resolves to the exit code (0 ok, 1 failed, 2 usage error).
 *
 * @example
 * const code = await runCli(["sign", "--body", '{"a":1}'], { env: { EXCHANGE_API_KEY: "k", EXCHANGE_API_SECRET: "s" } });
 */
export async function runCli(argv: readonly string[], options: RunOptions = {}): Promise<number> {
  const streams: Streams = {
    stdout: options.stdout ?? process.stdout,
    stderr: options.stderr ?? process.stderr,
    env: options.env ?? process.env,
  };
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-v") {
    streams.stdout.write(`${cliVersion()}\n`);
    return 0;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    streams.stdout.write(`${help()}\n`);
    return name === undefined ? 2 : 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  const out = createOutput(streams, rest.includes("--json"));
  if (!entry) {
    out.error("USAGE", `unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  return runCommand(entry, rest, out, options, streams);
}
