// pnpm lint:complexity           fails when a hand-written function is over 60 lines or cyclomatic complexity 15
//                                and is not in scripts/complexity-allow.json, or is worse than its entry there;
//                                an entry whose function is now within both limits must be removed (the list
//                                only shrinks)
// pnpm lint:complexity --report  prints every function over a limit, worst first, and the totals
// pnpm lint:complexity --write   rewrites the allow-list with today's offenders (only to shrink it: a ceiling never
//                                rises, and a new offender is refused unless --admit is also given)
// Counted on the TypeScript compiler's syntax tree over the hand-written code: packages/*/src and
// packages/*/scripts, tooling/*/src, openapi/ and scripts/; no tests, benches, generated files or declaration files.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import ts from "typescript";

export const MAX_LINES = 60;
export const MAX_COMPLEXITY = 15;

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const allowListPath = join(root, "scripts", "complexity-allow.json");

/** One function's figures; `name` is its path of enclosing names, stable across edits elsewhere in the file. */
export interface FunctionFigures {
  file: string;
  name: string;
  line: number;
  lines: number;
  complexity: number;
}

type AllowList = Record<string, { lines: number; complexity: number }>;

const SKIPPED_DIRS = new Set(["node_modules", "dist", "generated", "test", "tests", "bench", "fixtures", ".turbo"]);
const SOURCE_FILE = /\.(ts|mts|mjs|js)$/;
const NOT_SOURCE = /\.(test|bench|d)\.(ts|mts|mjs|js)$/;

/** The hand-written source files under `dir`, relative to the repository root. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith(".")) out.push(...sourceFiles(path));
    } else if (SOURCE_FILE.test(entry.name) && !NOT_SOURCE.test(entry.name)) {
      out.push(relative(root, path));
    }
  }
  return out;
}

const subdirs = (dir: string) => {
  try {
    return readdirSync(join(root, dir));
  } catch {
    return [];
  }
};

function scannedRoots(): string[] {
  const packages = subdirs("packages").flatMap((name) => [
    join(root, "packages", name, "src"),
    join(root, "packages", name, "scripts"),
  ]);
  const tooling = subdirs("tooling").map((name) => join(root, "tooling", name, "src"));
  return [...packages, ...tooling, join(root, "openapi"), join(root, "scripts")].filter((dir) => {
    try {
      return readdirSync(dir) !== undefined;
    } catch {
      return false;
    }
  });
}

/** Syntax kinds that open one more path through a function. */
const BRANCH_KINDS = new Set([
  ts.SyntaxKind.IfStatement,
  ts.SyntaxKind.ConditionalExpression,
  ts.SyntaxKind.CaseClause,
  ts.SyntaxKind.ForStatement,
  ts.SyntaxKind.ForInStatement,
  ts.SyntaxKind.ForOfStatement,
  ts.SyntaxKind.WhileStatement,
  ts.SyntaxKind.DoStatement,
  ts.SyntaxKind.CatchClause,
]);

const BRANCH_OPERATORS = new Set([
  ts.SyntaxKind.AmpersandAmpersandToken,
  ts.SyntaxKind.BarBarToken,
  ts.SyntaxKind.QuestionQuestionToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
]);

/** Whether `node` adds a path (a branch, a loop, a catch, a short-circuit operator). */
export function isBranch(node: ts.Node): boolean {
  if (BRANCH_KINDS.has(node.kind)) return true;
  return ts.isBinaryExpression(node) && BRANCH_OPERATORS.has(node.operatorToken.kind);
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** Cyclomatic complexity of one function: 1 + its branches, not counting the functions nested in it. */
export function complexityOf(fn: ts.FunctionLikeDeclaration): number {
  let count = 1;
  const visit = (node: ts.Node): void => {
    if (isBranch(node)) count++;
    if (!isFunction(node)) ts.forEachChild(node, visit);
  };
  if (fn.body) ts.forEachChild(fn.body, visit);
  return count;
}

function propertyName(name: ts.PropertyName | ts.BindingName | undefined, file: ts.SourceFile): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  return name.getText(file);
}

/** What a function is called where it stands: its own name, the variable or member it is assigned to, or the call it is passed to. */
function ownName(fn: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(fn)) return "constructor";
  const named = fn.name ? propertyName(fn.name, file) : undefined;
  if (named) return ts.isGetAccessor(fn) ? `get ${named}` : ts.isSetAccessor(fn) ? `set ${named}` : named;
  const parent = fn.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return propertyName(parent.name, file) ?? "(anonymous)";
  }
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(file).slice(0, 40)})`;
  return "(anonymous)";
}

/** The figures of every function in one source text; nested functions are named after their enclosing ones. */
export function measure(fileName: string, text: string): FunctionFigures[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const out: FunctionFigures[] = [];
  const seen = new Map<string, number>();
  const visit = (node: ts.Node, path: string[]): void => {
    if (!isFunction(node)) {
      ts.forEachChild(node, (child) => visit(child, path));
      return;
    }
    if (!node.body) return; // an overload signature or an abstract member: nothing runs
    let name = [...path, ownName(node, file)].join(".");
    const repeat = seen.get(name) ?? 0;
    seen.set(name, repeat + 1);
    if (repeat > 0) name = `${name}#${repeat + 1}`;
    const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
    const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
    out.push({ file: fileName, name, line: start + 1, lines: end - start + 1, complexity: complexityOf(node) });
    ts.forEachChild(node, (child) => visit(child, [name]));
  };
  visit(file, []);
  return out;
}

export function isOffender(f: { lines: number; complexity: number }): boolean {
  return f.lines > MAX_LINES || f.complexity > MAX_COMPLEXITY;
}

export const keyOf = (f: FunctionFigures): string => `${f.file}#${f.name}`;

/** What is wrong with today's figures against the allow-list; empty when the check passes. */
export function findProblems(offenders: FunctionFigures[], all: FunctionFigures[], allow: AllowList): string[] {
  const problems: string[] = [];
  for (const f of offenders) {
    const entry = allow[keyOf(f)];
    const figures = `${f.lines} lines, complexity ${f.complexity}`;
    if (!entry) problems.push(`${f.file}:${f.line} ${f.name}: ${figures} (limits ${MAX_LINES} / ${MAX_COMPLEXITY})`);
    else if (f.lines > Math.max(entry.lines, MAX_LINES) || f.complexity > Math.max(entry.complexity, MAX_COMPLEXITY)) {
      problems.push(
        `${f.file}:${f.line} ${f.name}: ${figures}, worse than its allowed ${entry.lines} / ${entry.complexity}`,
      );
    }
  }
  const byKey = new Map(all.map((f) => [keyOf(f), f]));
  for (const key of Object.keys(allow)) {
    const f = byKey.get(key);
    if (!f)
      problems.push(`${key}: in the allow-list but no longer exists: remove its entry (pnpm lint:complexity --write)`);
    else if (!isOffender(f))
      problems.push(`${key}: now within the limits: remove its entry (pnpm lint:complexity --write)`);
  }
  return problems;
}

/** Today's offenders as the new allow-list; a ceiling can come down with them, never go up. */
export function allowListOf(offenders: FunctionFigures[], previous: AllowList = {}): AllowList {
  const sorted = [...offenders].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
  const ceiling = (f: FunctionFigures) => {
    const old = previous[keyOf(f)];
    if (!old) return { lines: f.lines, complexity: f.complexity };
    return {
      lines: Math.min(old.lines, Math.max(f.lines, MAX_LINES)),
      complexity: Math.min(old.complexity, Math.max(f.complexity, MAX_COMPLEXITY)),
    };
  };
  return Object.fromEntries(sorted.map((f) => [keyOf(f), ceiling(f)]));
}

function readAllowList(): AllowList {
  try {
    return JSON.parse(readFileSync(allowListPath, "utf8")) as AllowList;
  } catch {
    return {};
  }
}

function printReport(offenders: FunctionFigures[], all: FunctionFigures[], files: number): void {
  const worst = [...offenders].sort((a, b) => b.complexity + b.lines / 4 - (a.complexity + a.lines / 4));
  for (const f of worst)
    console.log(`${String(f.lines).padStart(4)} lines  ${String(f.complexity).padStart(3)}  ${keyOf(f)}`);
  const long = offenders.filter((f) => f.lines > MAX_LINES).length;
  const branchy = offenders.filter((f) => f.complexity > MAX_COMPLEXITY).length;
  console.log(
    `${files} files, ${all.length} functions: ${long} over ${MAX_LINES} lines, ${branchy} over complexity ${MAX_COMPLEXITY}`,
  );
}

function main(): number {
  const { values } = parseArgs({
    options: { report: { type: "boolean" }, write: { type: "boolean" }, admit: { type: "boolean" } },
  });
  const files = scannedRoots().flatMap(sourceFiles);
  const all = files.flatMap((file) => measure(file, readFileSync(join(root, file), "utf8")));
  const offenders = all.filter(isOffender);
  const allow = readAllowList();
  if (values.report) printReport(offenders, all, files.length);
  if (values.write) {
    const added = offenders.filter((f) => !allow[keyOf(f)]);
    if (added.length > 0 && !values.admit) {
      for (const f of added)
        console.error(`new offender, not admitted: ${keyOf(f)} (${f.lines} lines, complexity ${f.complexity})`);
      return 1;
    }
    writeFileSync(allowListPath, `${JSON.stringify(allowListOf(offenders, allow), null, 2)}\n`);
    return 0;
  }
  const problems = findProblems(offenders, all, allow);
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(
      `\n${problems.length} problem(s): split the function (a decision as a named function, a sequence as a table of steps).`,
    );
    return 1;
  }
  if (!values.report)
    console.log(
      `complexity: ${all.length} functions in ${files.length} files; ${offenders.length} allowed offenders, none worse`,
    );
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(main());
