/**
 * Resolves once `signal` is aborted (at once when it already is): what a long-running command waits on until
 * Ctrl-C.
 *
 * @example
 * await untilAborted(signal);
 * await server.close();
 */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
