// pnpm lint:imports   fails when a file of a workspace package imports another workspace package's files by a
//                     relative path (`../../types/scripts/lib/spec.ts`): a package uses another through its name
//                     (`@exchange-kit/spec-tools/spec`), as a declared dependency, so the dependency graph that
//                     pnpm, turbo and the release check see is the real one.
// The packages are those pnpm-workspace.yaml lists; every source file in them counts (tests and generated code
// too), node_modules and build output aside. Files at the workspace root (vitest.shared.ts, ...) belong to no
// package, and importing them is not crossing.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const SKIPPED_DIRS = new Set(["node_modules", "dist", ".turbo", "coverage"]);
const SOURCE_FILE = /\.(ts|mts|cts|tsx|js|mjs|cjs|jsx)$/;

/** The package patterns of a pnpm-workspace.yaml: the items of its top-level `packages:` list. */
export function workspacePatterns(yaml: string): string[] {
  const out: string[] = [];
  let inList = false;
  for (const line of yaml.split(/\r?\n/)) {
    if (/^\S/.test(line)) inList = /^packages:\s*$/.test(line);
    else if (inList) {
      const item = /^\s+-\s+["']?([^"'#\s]+)["']?\s*(#.*)?$/.exec(line);
      if (item?.[1]) out.push(item[1]);
    }
  }
  return out;
}

const hasManifest = (dir: string) => {
  try {
    return readFileSync(join(dir, "package.json")).length > 0;
  } catch {
    return false;
  }
};

/** The workspace's package directories (absolute): each pattern is a directory or `dir/*`. */
export function packageDirs(root: string, patterns: string[]): string[] {
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [resolve(root, pattern)].filter(hasManifest);
    const parent = resolve(root, pattern.slice(0, -2));
    let names: string[] = [];
    try {
      names = readdirSync(parent);
    } catch {}
    return names.map((name) => join(parent, name)).filter(hasManifest);
  });
}

/** The package directory a path lies in (the deepest one), or undefined for a file of no package. */
export function ownerOf(path: string, dirs: readonly string[]): string | undefined {
  let owner: string | undefined;
  for (const dir of dirs) {
    const inside = path === dir || path.startsWith(dir + sep);
    if (inside && (owner === undefined || dir.length > owner.length)) owner = dir;
  }
  return owner;
}

/** The module specifier a node imports, when it is a string literal: imports, re-exports, import(), require(). */
function specifierOf(node: ts.Node): string | undefined {
  let target: ts.Node | undefined;
  if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) target = node.moduleSpecifier;
  else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
    target = node.moduleReference.expression;
  else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) target = node.argument.literal;
  else if (ts.isCallExpression(node) && isImportOrRequire(node.expression)) target = node.arguments[0];
  return target && ts.isStringLiteralLike(target) ? target.text : undefined;
}

const isImportOrRequire = (callee: ts.Expression) =>
  callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require");

/** Every relative module specifier (`./x`, `../x`) in a source text, with its line. */
export function relativeImports(fileName: string, text: string): { specifier: string; line: number }[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const out: { specifier: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    const specifier = specifierOf(node);
    if (specifier?.startsWith("./") || specifier?.startsWith("../")) {
      out.push({ specifier, line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) || entry.name.startsWith(".") ? [] : sourceFiles(path);
    return SOURCE_FILE.test(entry.name) ? [path] : [];
  });
}

/** Every relative import in the workspace at `root` that lands in another package than its file's. */
export function crossingImports(root: string): string[] {
  const dirs = packageDirs(root, workspacePatterns(readFileSync(join(root, "pnpm-workspace.yaml"), "utf8")));
  const problems: string[] = [];
  for (const dir of dirs) {
    for (const file of sourceFiles(dir)) {
      if (ownerOf(file, dirs) !== dir) continue; // a package nested in this one checks its own files
      for (const { specifier, line } of relativeImports(file, readFileSync(file, "utf8"))) {
        const target = ownerOf(resolve(dirname(file), specifier), dirs);
        if (target === undefined || target === dir) continue;
        problems.push(
          `${relative(root, file)}:${line} imports "${specifier}", a file of ${relative(root, target)}: import that package by name`,
        );
      }
    }
  }
  return problems;
}

function main(): number {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const problems = crossingImports(root);
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`\n${problems.length} import(s) reach into another package's files.`);
    return 1;
  }
  console.log("imports: no relative import crosses a package boundary");
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(main());
