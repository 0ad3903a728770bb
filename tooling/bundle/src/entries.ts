// Which files a package's build bundles: every entry of its exports map that names both its source (the
// "@exchange-kit/source" condition) and its built module (the "default" condition). Read from package.json, so a
// new subpath export is bundled without touching the build.

/** One module to bundle: its source, relative to the package, and the name of its output in dist/ (no extension). */
export interface BundleEntry {
  source: string;
  out: string;
}

type Conditions = { [condition: string]: string | Conditions };

function leavesOf(target: string | Conditions): Conditions[] {
  if (typeof target === "string") return [];
  const nested = Object.values(target).flatMap(leavesOf);
  return typeof target["@exchange-kit/source"] === "string" ? [target, ...nested] : nested;
}

function entryOf(conditions: Conditions): BundleEntry | undefined {
  const source = conditions["@exchange-kit/source"];
  const built = conditions.default;
  if (typeof source !== "string" || typeof built !== "string") return undefined;
  const out = /^\.\/dist\/(.+)\.js$/.exec(built)?.[1];
  if (out === undefined) throw new Error(`export "${built}" is not a ./dist/*.js file: cannot bundle it`);
  return { source: source.replace(/^\.\//, ""), out };
}

/**
 * The entries to bundle, one per distinct built module, in the order of the exports map.
 *
 * @example
 * bundleEntries({ exports: { ".": { "@exchange-kit/source": "./src/index.ts", default: "./dist/index.js" } } });
 * // [{ source: "src/index.ts", out: "index" }]
 */
export function bundleEntries(manifest: { exports?: Record<string, string | Conditions> }): BundleEntry[] {
  const found = new Map<string, BundleEntry>();
  for (const target of Object.values(manifest.exports ?? {})) {
    for (const leaf of leavesOf(target)) {
      const entry = entryOf(leaf);
      if (entry !== undefined && !found.has(entry.out)) found.set(entry.out, entry);
    }
  }
  return [...found.values()];
}
