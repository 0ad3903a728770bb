// The comparison as Markdown: one row per mutation (the truth, each tool's verdict, right or wrong), then the score.
import type { Mutation, Results } from "./mutations.ts";
import { isRight, type Verdict } from "./verdicts.ts";

const cell = (text: string) => text.replace(/\|/g, "\\|");
const mark = (right: boolean) => (right ? "✓" : "✗");

function shown(mutation: Mutation, verdict: Verdict | undefined): string {
  if (verdict === undefined) return "not measured";
  return `${verdict} ${mark(isRight(mutation.expected, verdict))}`;
}

function score(mutations: Mutation[], verdictOf: (m: Mutation) => Verdict | undefined): number {
  return mutations.filter((m) => isRight(m.expected, verdictOf(m))).length;
}

/** The summary lines: each tool's score, and who was right where they disagree. */
function summary(mutations: Mutation[], ours: (m: Mutation) => Verdict, optic: (m: Mutation) => Verdict | undefined) {
  const measured = mutations.filter((m) => optic(m) !== undefined);
  const disagree = measured.filter((m) => isRight(m.expected, ours(m)) !== isRight(m.expected, optic(m)));
  const oursRight = disagree.filter((m) => isRight(m.expected, ours(m))).length;
  return [
    `- spec:diff: ${score(mutations, ours)} of ${mutations.length} right.`,
    measured.length === 0
      ? "- Optic: not measured."
      : `- Optic: ${score(measured, optic)} of ${measured.length} right.`,
    ...(measured.length === 0
      ? []
      : [`- They disagree on ${disagree.length}; spec:diff is right on ${oursRight} of them.`]),
  ];
}

/**
 * The Markdown table and summary of a comparison.
 *
 * @example
 * console.log(comparisonTable(readMutations(), readResults()));
 */
export function comparisonTable(mutations: Mutation[], results: Results): string {
  const byId = new Map(results.mutations.map((r) => [r.id, r]));
  const ours = (m: Mutation) => byId.get(m.id)?.ours ?? "silent";
  const optic = (m: Mutation) => byId.get(m.id)?.optic;
  const version = results.optic ? `Optic ${results.optic.version}` : "Optic";
  const rows = mutations.map(
    (m, i) =>
      `| ${i + 1} | ${cell(m.change)} | ${m.expected} | ${shown(m, ours(m))} | ${cell((byId.get(m.id)?.rules ?? []).join(", "))} | ${shown(m, optic(m))} |`,
  );
  return [
    `| # | Mutation | Truth | spec:diff | spec:diff rules | ${version} |`,
    "| - | - | - | - | - | - |",
    ...rows,
    "",
    ...summary(mutations, ours, optic),
    "",
  ].join("\n");
}

const START = "<!-- comparison:start -->";
const END = "<!-- comparison:end -->";

/** The README with the text between its comparison markers replaced by `table`. */
export function withTable(readme: string, table: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`the README has no ${START} ... ${END} section`);
  return `${readme.slice(0, start + START.length)}\n${table}${readme.slice(end)}`;
}

/** The table currently in the README. */
export function tableIn(readme: string): string {
  return readme.slice(readme.indexOf(START) + START.length + 1, readme.indexOf(END));
}
