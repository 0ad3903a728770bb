// How the CLI talks: readable lines for a person (colors only on a TTY, and never with NO_COLOR), or one JSON
// object per result with --json so scripts can parse it.
import { readFile } from "node:fs/promises";
import type { Writable } from "node:stream";

export interface Output {
  readonly json: boolean;
  /** A line for a person; dropped in --json mode. */
  line(text: string): void;
  /** A result: printed as JSON in --json mode, otherwise as the given human text. */
  result(value: unknown, human: string): void;
  /** An error line on stderr (JSON object with --json). */
  error(code: string, message: string): void;
  green(text: string): string;
  red(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

export interface Streams {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
}

export function createOutput(streams: Streams, json: boolean): Output {
  const color = !json && streams.stdout.isTTY === true && !streams.env.NO_COLOR && streams.env.TERM !== "dumb";
  const paint = (code: number) => (text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
  return {
    json,
    line(text) {
      if (!json) streams.stdout.write(`${text}\n`);
    },
    result(value, human) {
      streams.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
    },
    error(code, message) {
      streams.stderr.write(json ? `${JSON.stringify({ error: code, message })}\n` : `error: ${message}\n`);
    },
    green: paint(32),
    red: paint(31),
    dim: paint(2),
    bold: paint(1),
  };
}

/** A command that cannot go on: its code (the `error` of the --json line) and one line saying why, exit code 1. */
export class CommandFailure extends Error {
  override readonly name = "CommandFailure";
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A mistake in how the command was called: printed with the usage hint, exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/**
 * The text of a file named by a flag; a missing or unreadable file is a usage error (exit 2).
 *
 * @example
 * const body = await readUsageFile("./body.json", "--body-file");
 */
export async function readUsageFile(path: string, flag: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new UsageError(
      `cannot read ${flag} ${path}: ${code === "ENOENT" ? "no such file" : (error as Error).message}`,
    );
  }
}
