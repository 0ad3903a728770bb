// CONTRIBUTING.md's "Adding a feature area" lists the files each change touches: this keeps the lists true to the
// code. Every file they name exists, and the event type's list names every table a new event type must get a row
// in (a constant typed as a mapped type over RecordType, or the registry itself).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const guide = readFileSync(join(packageRoot, "CONTRIBUTING.md"), "utf8");

/** The text of the `### title` section, up to the next heading. */
function section(title: string): string {
  const start = guide.indexOf(`### ${title}\n`);
  if (start === -1) throw new Error(`CONTRIBUTING.md has no section "${title}"`);
  const end = guide.slice(start + 4).search(/\n#{2,3} /);
  return end === -1 ? guide.slice(start) : guide.slice(start, start + 4 + end);
}

/** The source files a section names, as `src/...ts`. */
const filesNamed = (text: string) => [...text.matchAll(/`(src\/[\w./-]+\.ts)`/g)].map((m) => m[1] as string);

/** Every .ts file under src/, relative to the package. */
function sources(dir = join(packageRoot, "src")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [relative(packageRoot, path)] : [];
  });
}

/** A table a new event type must get a row in: hand-written per kind, checked by its type. */
const PER_KIND_TABLE = /const \w+: \{ readonly \[T in RecordType\]|satisfies RecordKindRegistry\b/;

const SECTIONS = ["Adding an event type", "Adding a control action", "Adding a fault kind"];

describe("the lists of CONTRIBUTING.md's 'Adding a feature area'", () => {
  for (const title of SECTIONS) {
    it(`name only files that exist: ${title}`, () => {
      const named = filesNamed(section(title));
      expect(named.length).toBeGreaterThan(0);
      for (const file of named) expect(existsSync(join(packageRoot, file)), file).toBe(true);
    });
  }

  it("name, for an event type, every file with a table over the record types", () => {
    const tables = sources().filter((file) => PER_KIND_TABLE.test(readFileSync(join(packageRoot, file), "utf8")));
    expect(tables).toContain("src/domain/transitions.ts");
    expect(filesNamed(section("Adding an event type"))).toEqual(expect.arrayContaining(tables));
  });
});
