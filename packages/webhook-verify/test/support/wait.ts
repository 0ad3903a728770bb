/**
 * Resolves once `condition` holds, polled every few milliseconds: tests wait
 * on what they need to see, not on a guess of how long it takes. The deadline
 * only turns a hang into a failure.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  everyMs = 10,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${condition}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
