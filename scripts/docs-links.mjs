// Every link a reader can follow in the pages users read resolves: a relative link names a file of the repository
// (and, with #anchor, a heading of that page); a link to this repository on GitHub names a file that exists; a
// link to the published docs site names a page the docs build makes. Links elsewhere are not fetched (CI has no
// internet), only named in the report's count.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export const REPO_URL = "https://github.com/exchange-kit/exchange-kit";
export const SITE_URL = "https://exchange-kit.github.io/exchange-kit/latest/";

/** The pages users read: the READMEs and BENCHMARKS, the docs and the guides (CONTRIBUTING is not theirs). */
export function pagesOf(root) {
  const pages = [join(root, "README.md"), join(root, "openapi", "README.md")];
  for (const dir of readdirSync(join(root, "packages")).sort())
    pages.push(join(root, "packages", dir, "README.md"), join(root, "packages", dir, "BENCHMARKS.md"));
  for (const name of readdirSync(join(root, "docs")).sort())
    if (name.endsWith(".md")) pages.push(join(root, "docs", name));
  const guides = join(root, "docs", "guides");
  for (const name of readdirSync(guides).sort()) if (name.endsWith(".md")) pages.push(join(guides, name));
  return pages.filter((page) => existsSync(page));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens (repeats numbered). */
export function slugOf(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors a page's headings make, outside code blocks. */
export function anchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6}\s+(.+?)\s*#*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = slugOf(heading.replace(/`/g, ""));
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The links of a page, outside code blocks: `[text](target)` and `![alt](target)`, with their line. */
export function linksOf(markdown) {
  const links = [];
  let fenced = false;
  markdown.split("\n").forEach((line, index) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) return;
    const prose = line.replace(/`[^`]*`/g, "");
    for (const match of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      links.push({ line: index + 1, target: match[1] });
  });
  return links;
}

/** The spec a reference page of the site is built from: the service's, or the sandbox's (its overlay). */
function referenceSource(root, path) {
  if (path === "reference/" || path === "reference/index.html") return join(root, "openapi", "openapi.yaml");
  if (path === "sandbox/" || path === "sandbox/index.html") return join(root, "openapi", "overlays", "sandbox.yaml");
  return undefined;
}

/** The repository file a published-site page is built from (scripts/build-docs.mjs), or undefined. */
function siteSource(root, path) {
  if (path === "" || path === "index.html") return join(root, "docs", "README.md");
  const guide = /^guides\/([\w-]+)\.html$/.exec(path)?.[1];
  if (!guide) return referenceSource(root, path);
  if (guide === "index") return join(root, "docs", "README.md");
  for (const candidate of [join(root, "docs", "guides", `${guide}.md`), join(root, "docs", `${guide}.md`)])
    if (existsSync(candidate)) return candidate;
  return undefined;
}

/** Where a link leads in this repository: a file and an anchor; `external` for other sites. */
export function targetOf(root, page, target) {
  const [path, anchor] = target.split("#");
  if (target.startsWith(`${REPO_URL}/blob/`) || target.startsWith(`${REPO_URL}/tree/`)) {
    const file = decodeURI(
      path
        .slice(REPO_URL.length + 1)
        .split("/")
        .slice(2)
        .join("/"),
    );
    return { file: join(root, file), anchor };
  }
  if (target === REPO_URL) return { file: root, anchor: undefined };
  if (target.startsWith(SITE_URL)) return { file: siteSource(root, path.slice(SITE_URL.length)), anchor, site: true };
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return { external: true };
  return { file: path === "" ? page : resolve(dirname(page), decodeURI(path)), anchor };
}

/** The broken links of every page, as "page:line: target (why)". */
export function brokenLinks(root) {
  const broken = [];
  let external = 0;
  for (const page of pagesOf(root)) {
    const shown = relative(root, page);
    for (const link of linksOf(readFileSync(page, "utf8"))) {
      const to = targetOf(root, page, link.target);
      if (to.external) {
        external++;
        continue;
      }
      const where = `${shown}:${link.line}: ${link.target}`;
      if (!to.file || !existsSync(to.file)) {
        broken.push(`${where} (no such ${to.site ? "page on the docs site" : "file"})`);
        continue;
      }
      if (!to.anchor || !to.file.endsWith(".md") || statSync(to.file).isDirectory()) continue;
      if (!anchorsOf(readFileSync(to.file, "utf8")).has(to.anchor))
        broken.push(`${where} (no heading #${to.anchor} in ${relative(root, to.file)})`);
    }
  }
  return { broken, external };
}
