// READMEs as a user follows them: every ```ts block is a file of its own, type-checked with strict settings
// against the packages installed from the registry; every package a block imports is one the same page tells
// you to install, with one install-line convention (`npm install ...`); a published README links absolutely,
// since relative links break on the registry's page.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { builtinModules } from "node:module";

/**
 * The markdown files users read: the root README, each package's README, the guides, and the getting-started page
 * last (its examples register a webhook receiver that is gone once they end, so no example runs after them).
 */
export function readmeFiles(root) {
  const files = [join(root, "README.md")];
  for (const dir of readdirSync(join(root, "packages")).sort()) {
    const file = join(root, "packages", dir, "README.md");
    if (existsSync(file)) files.push(file);
  }
  const guides = join(root, "docs", "guides");
  if (existsSync(guides))
    for (const f of readdirSync(guides).sort()) if (f.endsWith(".md")) files.push(join(guides, f));
  const start = join(root, "docs", "getting-started.md");
  if (existsSync(start)) files.push(start);
  return files;
}

/** The line before a block that marks it as a whole program to run against the sandbox (the client's README). */
export const RUN_MARKER = "<!-- readme-test: run -->";

/** The line before a block that names the file it shows. */
const FILE_MARKER = /^<!--\s*file:\s*(\S+)\s*-->$/;

/** Fenced blocks with their language, the line the code starts on, and whether the run marker precedes it. */
export function codeBlocks(markdown) {
  const blocks = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(```+)\s*([\w-]*)/.exec(lines[i]);
    if (!open) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !lines[end].trimStart().startsWith(open[2])) end++;
    // The markers are the comment lines right above the fence, in any order.
    const markers = [];
    for (let j = i - 1; j >= 0 && /^<!--.*-->$/.test(lines[j].trim()); j--) markers.push(lines[j].trim());
    const run = markers.includes(RUN_MARKER);
    // A block the page names as a file (`<!-- file: path/name.ts -->`) keeps that name, so that blocks of one page
    // can import each other as the files they are (`./payout-ready.js`).
    const file = markers.map((marker) => FILE_MARKER.exec(marker)?.[1]).find(Boolean);
    blocks.push({ lang: open[3].toLowerCase(), line: start + 1, code: lines.slice(start, end).join("\n"), run, file });
    i = end;
  }
  return blocks;
}

/** The packages a page's `npm install` lines name (versions and flags dropped). */
export function installedBy(blocks) {
  const names = new Set();
  for (const block of blocks) {
    if (!["sh", "bash", "shell", "console"].includes(block.lang)) continue;
    for (const line of block.code.split("\n")) {
      const m = /^\s*(?:\$\s*)?npm install\s+(.+)$/.exec(line.replace(/\s#.*$/, ""));
      if (!m) continue;
      for (const spec of m[1].split(/\s+/))
        if (spec && !spec.startsWith("-")) names.add(packageName(spec.replace(/(.)@.*$/, "$1")));
    }
  }
  return names;
}

/** Lines that install some other way than `npm install`. */
export function otherInstallLines(blocks) {
  const found = [];
  for (const block of blocks) {
    if (!["sh", "bash", "shell", "console"].includes(block.lang)) continue;
    block.code.split("\n").forEach((line, i) => {
      if (/^\s*(?:\$\s*)?(?:(?:pnpm|yarn|bun)\s+add|npm\s+(?:i|add)|deno\s+add)\b/.test(line))
        found.push({ line: block.line + i, text: line.trim() });
    });
  }
  return found;
}

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
export function packageName(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Module specifiers a TypeScript block imports (static and type-only imports, re-exports). */
export function importsOf(code) {
  return [
    ...code.matchAll(
      /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']/g,
    ),
  ].map((m) => m[1] ?? m[2]);
}

/** Markdown links that are not absolute (a relative link is dead on the registry's page). */
export function relativeLinks(markdown) {
  const found = [];
  markdown.split("\n").forEach((text, i) => {
    for (const m of text.matchAll(/\]\(([^)\s]+)[^)]*\)/g)) {
      if (!/^(https?:|mailto:|#)/.test(m[1])) found.push({ line: i + 1, target: m[1] });
    }
  });
  return found;
}

const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** pnpm commands that run instead of a root script of the same name (`pnpm docs` opens a browser). */
const PNPM_SHADOWS = [
  "add",
  "docs",
  "home",
  "info",
  "init",
  "install",
  "link",
  "outdated",
  "pack",
  "publish",
  "remove",
  "update",
  "view",
];

/** Root scripts that `pnpm <name>`, as the READMEs write it, would not run. */
export function shadowedScripts(rootPackage) {
  return Object.keys(rootPackage.scripts ?? {}).filter((name) => PNPM_SHADOWS.includes(name));
}

/**
 * One page's problems (install lines of another convention, relative links on a package's page, imports of
 * packages the page never says to install), the third-party packages it installs, and its TypeScript blocks as
 * snippet files to type-check.
 */
export function checkPage(page, markdown) {
  const problems = [];
  const blocks = codeBlocks(markdown);
  const installs = installedBy(blocks);
  for (const bad of otherInstallLines(blocks))
    problems.push(`${page}:${bad.line}: install with "npm install ...", not "${bad.text}"`);
  if (page.startsWith("packages/"))
    for (const link of relativeLinks(markdown))
      problems.push(`${page}:${link.line}: relative link ${link.target} (dead on the registry's page)`);
  const snippets = [];
  for (const block of blocks.filter((b) => b.lang === "ts" || b.lang === "typescript")) {
    for (const specifier of importsOf(block.code)) {
      if (specifier.startsWith(".") || builtins.has(specifier)) continue;
      const name = packageName(specifier);
      if (!installs.has(name))
        problems.push(`${page}:${block.line}: imports ${specifier}, but the page never says to install ${name}`);
    }
    const pageId = page.replace(/[\\/.]/g, "_");
    snippets.push({
      // A named block goes into its page's folder under its own name; the others are named by page and line.
      file: block.file ? `${pageId}/${block.file.split("/").at(-1)}` : `${pageId}_L${block.line}.ts`,
      code: `${block.code}\n`,
      run: block.run,
    });
  }
  const thirdParty = [...installs].filter((name) => !name.startsWith("@exchange-kit/"));
  return { problems, thirdParty, snippets };
}

/** Strict settings, no DOM: an undeclared `event` or `name` must not silently bind to a browser global. */
const SNIPPET_TSCONFIG = {
  compilerOptions: {
    strict: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2022",
    lib: ["es2022"],
    types: ["node"],
    moduleDetection: "force",
    noEmit: true,
    skipLibCheck: true,
  },
  include: ["snippets/**/*.ts"],
};

/** The project the snippets are type-checked in: its manifest, the registry of the scope, the tsconfig. */
function writeSnippetProject(dir, registryUrl) {
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "readme-snippets", private: true, type: "module" }, null, 2)}\n`,
  );
  writeFileSync(join(dir, ".npmrc"), `@exchange-kit:registry=${registryUrl}\n`);
  writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(SNIPPET_TSCONFIG, null, 2)}\n`);
}

/** Type-checks the snippets with `tsc`; each error is a failure. */
function typeCheckSnippets(dir, tsc, count, fail) {
  try {
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.json", "--pretty", "false"], {
      cwd: dir,
      encoding: "utf8",
      stdio: "pipe",
    });
    console.log(`${count} TypeScript blocks type-check (strict) against the installed packages`);
  } catch (error) {
    const lines = `${error.stdout ?? ""}${error.stderr ?? ""}`
      .trim()
      .split("\n")
      .filter((l) => l.includes("error TS"));
    for (const line of lines) fail(`README block ${line.replace(/^snippets\//, "")}`);
    if (lines.length === 0) fail(`tsc failed: ${error.message}`);
  }
}

/**
 * Runs every README check; the type-check installs the pages' packages into `dir` from the registry (the
 * `@exchange-kit` scope) and npm (the rest), with @types/node and the workspace's TypeScript.
 * @returns the number of failures (each printed).
 */
export function checkReadmes({ root, dir, registryUrl, versions, tsc, typesNode, log, run }) {
  let failures = 0;
  const fail = (message) => {
    failures++;
    console.error(`FAIL ${message}`);
  };
  const snippets = join(dir, "snippets");
  mkdirSync(snippets, { recursive: true });
  const thirdParty = new Set();
  let count = 0;
  for (const name of shadowedScripts(JSON.parse(readFileSync(join(root, "package.json"), "utf8")))) {
    fail(`package.json: the script "${name}" is shadowed by pnpm's own "pnpm ${name}": rename it`);
  }
  for (const file of readmeFiles(root)) {
    const checked = checkPage(relative(root, file), readFileSync(file, "utf8"));
    for (const problem of checked.problems) fail(problem);
    for (const name of checked.thirdParty) thirdParty.add(name);
    for (const snippet of checked.snippets) {
      mkdirSync(dirname(join(snippets, snippet.file)), { recursive: true });
      writeFileSync(join(snippets, snippet.file), snippet.code);
    }
    count += checked.snippets.length;
  }
  writeSnippetProject(dir, registryUrl);
  const ours = Object.entries(versions).map(([name, version]) => `${name}@${version}`);
  run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--loglevel=error", ...ours, ...thirdParty, `@types/node@${typesNode}`],
    { cwd: dir, log },
  );
  typeCheckSnippets(dir, tsc, count, fail);
  return failures;
}
