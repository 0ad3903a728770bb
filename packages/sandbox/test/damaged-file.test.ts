import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSandbox, DatabaseError } from "../src/index.js";
import { Api, ORG_A } from "./helpers.js";

// Real damage to a real file: a sandbox writes the file and closes it, then the test overwrites bytes of it the
// way a failing disk or a stray write would, and checks with plain node:sqlite that SQLite agrees it is damaged.
const dir = mkdtempSync(join(tmpdir(), "sandbox-damaged-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const options = { organizations: [ORG_A], autoProgressMs: false as const };

async function sandboxFile(name: string): Promise<string> {
  const file = join(dir, name);
  const sandbox = await createSandbox({ ...options, db: file });
  const api = new Api(sandbox);
  for (let i = 0; i < 40; i++) {
    await api.ok("POST", "/cms/api/v1/customer/create", {
      client_reference_id: `damaged-${i}`,
      full_name: "Asha Rao",
      alpha_3_country_code: "IND",
      email: `asha${i}@example.com`,
    });
  }
  await sandbox.close();
  return file;
}

/** Plain SQLite on the file: its page size and the root page of a table or index. */
function layout(file: string, name: string): { pageSize: number; page: number } {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const pageSize = Number((db.prepare("PRAGMA page_size").get() as { page_size: number }).page_size);
    const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = ?").get(name) as {
      rootpage: number;
    };
    return { pageSize, page: Number(rootpage) };
  } finally {
    db.close();
  }
}

/** Writes `length` bytes of 0xA5 at `offset`: no valid b-tree page starts with that byte. */
function overwrite(file: string, offset: number, length: number): void {
  const fd = openSync(file, "r+");
  try {
    writeSync(fd, Buffer.alloc(length, 0xa5), 0, length, offset);
  } finally {
    closeSync(fd);
  }
}

function integrityCheck(file: string): string {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (db.prepare("PRAGMA integrity_check(1)").get() as { integrity_check: string }).integrity_check;
  } catch (error) {
    return (error as Error).message;
  } finally {
    db.close();
  }
}

async function startError(file: string): Promise<DatabaseError> {
  const error = await createSandbox({ ...options, db: file }).then(
    async (sandbox) => {
      await sandbox.close();
      throw new Error(`the sandbox started on ${file}`);
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DatabaseError);
  return error as DatabaseError;
}

describe("a damaged --db file", () => {
  it("refuses to start on a file with one overwritten table page, in one line naming the file", async () => {
    const file = await sandboxFile("table-page.db");
    const { pageSize, page } = layout(file, "customer");
    overwrite(file, (page - 1) * pageSize, pageSize);
    expect(integrityCheck(file)).not.toBe("ok");
    const error = await startError(file);
    expect(error.problem).toBe("damaged");
    expect(error.file).toBe(file);
    expect(error.message).toMatch(/^\S+table-page\.db is damaged \(PRAGMA quick_check: .+\)/);
    expect(error.message).toContain("restore it from a backup, or delete it to start afresh");
    expect(error.message).not.toContain("\n");
  });

  it("refuses to start on a file with one overwritten index page", async () => {
    const file = await sandboxFile("index-page.db");
    const { pageSize, page } = layout(file, "customer_org_email");
    overwrite(file, (page - 1) * pageSize, pageSize);
    expect(integrityCheck(file)).not.toBe("ok");
    const error = await startError(file);
    expect(error.problem).toBe("damaged");
    expect(error.message).toContain(file);
  });

  it("refuses to start on a file whose 100-byte header is overwritten, saying what to do", async () => {
    const file = await sandboxFile("header.db");
    overwrite(file, 0, 100);
    expect(integrityCheck(file)).not.toBe("ok");
    const before = readFileSync(file);
    const error = await startError(file);
    expect(error.problem).toBe("not-sqlite");
    expect(error.message).toBe(
      `${file} is not an SQLite database, or its header is damaged: if it is a sandbox file, restore it from a backup or delete it to start afresh; otherwise use another --db file.`,
    );
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it("starts on the same kind of file when it is not damaged", async () => {
    const file = await sandboxFile("intact.db");
    expect(integrityCheck(file)).toBe("ok");
    const sandbox = await createSandbox({ ...options, db: file });
    expect((await new Api(sandbox).ok("GET", "/cms/api/v1/customer/list")).count).toBe(40);
    await sandbox.close();
  });
});
