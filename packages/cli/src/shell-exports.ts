// The line the sandbox's ready output offers to paste into a shell: the environment variables the client
// (createExchangeClient) and the cli read, so the next command in that shell talks to this sandbox.

/** A value as one shell word: as it is when it holds only safe characters, otherwise in single quotes. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * `export NAME=value ...` for the variables given (in order; undefined ones left out).
 *
 * @example
 * exportLine({ EXCHANGE_BASE_URL: "http://127.0.0.1:4020", EXCHANGE_API_KEY: "sbx_k" });
 * // "export EXCHANGE_BASE_URL=http://127.0.0.1:4020 EXCHANGE_API_KEY=sbx_k"
 */
export function exportLine(variables: Record<string, string | undefined>): string {
  const words = Object.entries(variables)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}=${shellWord(value)}`);
  return `export ${words.join(" ")}`;
}
