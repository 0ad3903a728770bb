// The Markdown report of a spec diff (printed, and written to a file for the pull request). Security changes get a
// heading of their own whatever their verdict, so a reviewer cannot miss one that breaks no client (credentials no
// longer checked); a breaking one is also in the breaking table. Changes no rule can class are listed for review.
import type { ChangesetVerdict } from "./changesets.ts";
import type { Change } from "./types.ts";

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

function table(changes: Change[]): string[] {
  return [
    "| Rule | Where | Change |",
    "| - | - | - |",
    ...changes.map((c) => `| ${c.rule} | ${cell(c.where.replace(/:$/, ""))} | ${cell(c.message)} |`),
  ];
}

function securityTable(changes: Change[]): string[] {
  return [
    "| Rule | Where | Change | Breaking for clients |",
    "| - | - | - | - |",
    ...changes.map(
      (c) => `| ${c.rule} | ${cell(c.where.replace(/:$/, ""))} | ${cell(c.message)} | ${c.breaking ? "yes" : "no"} |`,
    ),
  ];
}

/** Which section a change is listed in besides the breaking table (a breaking security change is in both). */
export function sectionOf(change: Change): "security" | "breaking" | "review" | "other" {
  if (change.security) return "security";
  if (change.breaking) return "breaking";
  return change.review ? "review" : "other";
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The one-line verdict: e.g. `3 changes, **1 breaking** for clients, 1 security change, 1 to review.` */
export function verdictLine(changes: Change[]): string {
  if (changes.length === 0) return "No change a client can notice.";
  const breaking = changes.filter((c) => c.breaking).length;
  const security = changes.filter((c) => c.security).length;
  const review = changes.filter((c) => c.review).length;
  const extra = [
    ...(security > 0 ? [count(security, "security change")] : []),
    ...(review > 0 ? [`${review} to review`] : []),
  ];
  return `${count(changes.length, "change")}, **${breaking} breaking** for clients${extra.map((e) => `, ${e}`).join("")}.`;
}

function changesetLines(verdicts: ChangesetVerdict[]): string[] {
  return [
    "",
    "### Changesets",
    "",
    "| Package | Version | Needs | Found | |",
    "| - | - | - | - | - |",
    ...verdicts.map(
      (v) => `| ${v.name} | ${v.version} | ${v.needed} | ${v.found ?? "none"} | ${v.ok ? "ok" : "**missing**"} |`,
    ),
    "",
    "Policy: a breaking spec change needs a major changeset for each package; while a package is 0.x, a minor",
    "one (semver gives 0.x minors the meaning of majors). Add one with `pnpm changeset`.",
  ];
}

/**
 * Markdown: a one-line verdict, then tables of the breaking changes, the security changes, the changes to review
 * and the others, then the changeset check.
 *
 * @example
 * process.stdout.write(markdownReport(diffSpecs(oldDoc, newDoc), { title: "Spec diff" }));
 */
export function markdownReport(
  changes: Change[],
  options: { title?: string; changesets?: ChangesetVerdict[] } = {},
): string {
  const lines = [`## ${options.title ?? "Spec diff"}`, "", verdictLine(changes)];
  const section = (name: ReturnType<typeof sectionOf>) => changes.filter((c) => sectionOf(c) === name);
  const breaking = changes.filter((c) => c.breaking);
  if (breaking.length > 0) lines.push("", "### Breaking", "", ...table(breaking));
  if (section("security").length > 0) lines.push("", "### Security changes", "", ...securityTable(section("security")));
  if (section("review").length > 0)
    lines.push("", "### To review (not classed breaking)", "", ...table(section("review")));
  if (section("other").length > 0) lines.push("", "### Not breaking", "", ...table(section("other")));
  if (options.changesets && options.changesets.length > 0) lines.push(...changesetLines(options.changesets));
  return `${lines.join("\n")}\n`;
}
