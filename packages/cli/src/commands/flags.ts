// Flags several commands read the same way.
import { UsageError } from "../output.js";

/**
 * --port: an integer from 0 to 65535 (0 picks a free port), `fallback` when the flag is absent.
 *
 * @example
 * portFlag("4020", 4010); // 4020
 * portFlag(undefined, 4010); // 4010
 */
export function portFlag(value: string | boolean | undefined, fallback: number): number {
  const port = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError("--port must be a port number");
  return port;
}

/** --host: the interface to bind, 127.0.0.1 when the flag is absent. */
export function hostFlag(value: string | boolean | undefined): string {
  return typeof value === "string" ? value : "127.0.0.1";
}
