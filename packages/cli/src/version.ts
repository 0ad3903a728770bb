import { readFileSync } from "node:fs";

/**
 * The installed package's version, read from its package.json (one level above both src/ and dist/), so a
 * release that bumps package.json needs no generated file.
 *
 * @example
 * cliVersion(); // "0.2.0"
 */
export function cliVersion(): string {
  return (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
}
