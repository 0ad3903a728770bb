// The name an organization is added with: shown in the dashboard and the admin list, never used to find it.

/** Longest name accepted. */
export const MAX_NAME_LENGTH = 200;

/**
 * Why a name cannot be used, or undefined when it can: a string of 1 to 200 characters, not only white space,
 * without control characters (it is printed in terminals and log-free lists).
 *
 * @example
 * organizationNameProblem("QA team"); // undefined
 * organizationNameProblem(""); // "Must be a non-empty string."
 */
export function organizationNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string" || name.trim() === "") return "Must be a non-empty string.";
  if (name.length > MAX_NAME_LENGTH) return `Must be at most ${MAX_NAME_LENGTH} characters.`;
  if (/[\u0000-\u001f\u007f]/.test(name)) return "Must not contain control characters.";
  return undefined;
}
