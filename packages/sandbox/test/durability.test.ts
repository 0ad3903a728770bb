import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { canonical, ORG_A, sign } from "./helpers.js";

// Real processes on a real file: the built package (dist) runs in a child, the test kills it with SIGKILL.
const SERVE = fileURLToPath(new URL("./fixtures/serve-db.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "sandbox-durability-"));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts a sandbox process on `file` and resolves with its first line: {url} or {error}. */
function start(file: string): Promise<{ url?: string; error?: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [SERVE, file], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const newline = text.indexOf("\n");
      if (newline !== -1)
        resolve({ ...(JSON.parse(text.slice(0, newline)) as { url?: string; error?: string }), child });
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (!text.includes("\n")) reject(new Error(`sandbox process exited with ${code} before it was ready`));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

async function call(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const text = body === undefined ? undefined : canonical(body);
  const ts = Math.floor(Date.now() / 1000);
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      "X-API-KEY": ORG_A.apiKey,
      "X-TIMESTAMP": String(ts),
      "X-SIGNATURE": sign(ORG_A, ts, text ?? "{}"),
      ...(text === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: text,
  });
  return { status: res.status, json: await res.json() };
}

describe("durability of a --db file", () => {
  it("keeps every acknowledged create when the process is killed with SIGKILL right after the last answer", async () => {
    const file = join(dir, "kill.db");
    const first = await start(file);
    const n = 25;
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await call(first.url!, "POST", "/cms/api/v1/customer/create", {
        client_reference_id: `kill-${i}`,
        full_name: "Asha Rao",
        alpha_3_country_code: "IND",
      });
      expect(res.status).toBe(200);
      ids.push(res.json.data.id);
    }
    first.child.kill("SIGKILL");
    await exited(first.child);

    const second = await start(file);
    expect(second.error).toBeUndefined();
    const list = await call(second.url!, "GET", "/cms/api/v1/customer/list?per_page=100");
    expect(list.json.data.count).toBe(n);
    expect(new Set(list.json.data.results.map((c: { id: string }) => c.id))).toEqual(new Set(ids));
  });

  it("refuses to start a second sandbox on a file another sandbox process holds, naming the file", async () => {
    const file = join(dir, "shared.db");
    const first = await start(file);
    expect(first.url).toBeDefined();
    const second = await start(file);
    expect(second.error).toContain(file);
    expect(second.error).toContain("in use by another sandbox");
    await exited(second.child);
    expect(second.child.exitCode).toBe(1);
    // The first one still serves and writes.
    expect(
      (
        await call(first.url!, "POST", "/cms/api/v1/customer/create", {
          client_reference_id: "still",
          full_name: "Asha",
          alpha_3_country_code: "IND",
        })
      ).status,
    ).toBe(200);
  });

  it("lets a new sandbox open the file once the holder was killed (the lock dies with the process)", async () => {
    const file = join(dir, "released.db");
    const first = await start(file);
    first.child.kill("SIGKILL");
    await exited(first.child);
    const second = await start(file);
    expect(second.url).toBeDefined();
  });
});
