// The Markdown report of a spec diff (printed, and written to a file for the pull request).
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

/** Markdown: a one-line verdict, then the breaking and the other changes as tables, then the changeset check. */
export function markdownReport(
  changes: Change[],
  options: { title?: string; changesets?: ChangesetVerdict[] } = {},
): string {
  const breaking = changes.filter((c) => c.breaking);
  const other = changes.filter((c) => !c.breaking);
  const lines = [`## ${options.title ?? "Spec diff"}`, ""];
  if (changes.length === 0) lines.push("No change a client can notice.");
  else
    lines.push(
      `${changes.length} change${changes.length === 1 ? "" : "s"}, **${breaking.length} breaking** for clients.`,
    );
  if (breaking.length > 0) lines.push("", "### Breaking", "", ...table(breaking));
  if (other.length > 0) lines.push("", "### Not breaking", "", ...table(other));
  if (options.changesets && options.changesets.length > 0) {
    lines.push("", "### Changesets", "", "| Package | Version | Needs | Found | |", "| - | - | - | - | - |");
    for (const v of options.changesets) {
      lines.push(`| ${v.name} | ${v.version} | ${v.needed} | ${v.found ?? "none"} | ${v.ok ? "ok" : "**missing**"} |`);
    }
    lines.push(
      "",
      "Policy: a breaking spec change needs a major changeset for each package; while a package is 0.x, a minor",
      "one (semver gives 0.x minors the meaning of majors). Add one with `pnpm changeset`.",
    );
  }
  return `${lines.join("\n")}\n`;
}
