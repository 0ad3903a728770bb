// Finds a Node 20 (20.19 or later) on this machine for the tests that run the built cli under it: the path in
// EXCHANGE_KIT_NODE20, then the system's node (/usr/bin/node, /usr/local/bin/node), then every `node` on PATH.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

export type Node20 = { found: true; bin: string; version: string } | { found: false; why: string };

function versionOf(bin: string): string | undefined {
  try {
    return execFileSync(bin, ["--version"], { encoding: "utf8", timeout: 10_000 }).trim().replace(/^v/, "");
  } catch {
    return undefined;
  }
}

/** Whether a version is a Node 20 the cli supports (20.19 or later). */
export function isSupportedNode20(version: string): boolean {
  const [major, minor] = version.split(".").map(Number);
  return major === 20 && (minor ?? 0) >= 19;
}

export function findNode20(env: Record<string, string | undefined> = process.env): Node20 {
  const onPath = (env.PATH ?? "").split(delimiter).map((dir) => join(dir, "node"));
  const candidates = [env.EXCHANGE_KIT_NODE20, "/usr/bin/node", "/usr/local/bin/node", ...onPath].filter(
    (bin): bin is string => bin !== undefined && bin !== "" && existsSync(bin),
  );
  const seen: string[] = [];
  for (const bin of new Set(candidates)) {
    const version = versionOf(bin);
    if (version !== undefined && isSupportedNode20(version)) return { found: true, bin, version };
    seen.push(`${bin} is ${version ?? "not runnable"}`);
  }
  return {
    found: false,
    why: `no Node 20.19+ found (${seen.join(", ") || "no node binary"}); set EXCHANGE_KIT_NODE20 to one`,
  };
}
