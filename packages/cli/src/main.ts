import { parseArgs } from "node:util";
import type { Command } from "./commands/command.js";
import { demo } from "./commands/demo.js";
import { fault } from "./commands/fault.js";
import { listen } from "./commands/listen.js";
import { logs } from "./commands/logs.js";
import { mock } from "./commands/mock.js";
import { proxy } from "./commands/proxy.js";
import { sandbox } from "./commands/sandbox.js";
import { sign } from "./commands/sign.js";
import { trigger } from "./commands/trigger.js";
import { verify } from "./commands/verify.js";
import { createOutput, type Streams, UsageError } from "./output.js";
import { cliVersion } from "./version.js";

export const commands: readonly Command[] = [sandbox, mock, proxy, sign, verify, listen, trigger, fault, logs, demo];

export interface RunOptions extends Partial<Streams> {
  /** Aborting it stops long-running commands (sandbox, listen); the binary wires it to Ctrl-C. */
  signal?: AbortSignal;
}

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    "exchange-kit <command> [options] [--json]",
    "exchange-kit --version",
    "",
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "exchange-kit <command> --help shows the options of a command.",
    "Exit codes (every command): 0 ok, 1 failure (e.g. an invalid signature, the sandbox unreachable), 2 usage error.",
  ].join("\n");
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
  const command = commands.find((c) => c.name === name);
  const json = rest.includes("--json");
  const out = createOutput(streams, json);
  if (!command) {
    out.error("USAGE", `unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    streams.stdout.write(`${command.summary}\n\n${command.usage}\n`);
    return 0;
  }
  try {
    const { values, positionals } = parseArgs({
      args: rest,
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
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      out.error("USAGE", `${(error as Error).message}\n\n${command.usage}`);
      return 2;
    }
    out.error("FAILED", (error as Error).message);
    return 1;
  }
}
