import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("./python_canon.py", import.meta.url));

/** Whether python3 can be run here; property tests skip without it. */
export const hasPython = spawnSync("python3", ["--version"]).status === 0;

export const pythonVersion = hasPython
  ? spawnSync("python3", ["-c", "import sys; print(sys.version_info[0] * 100 + sys.version_info[1])"], {
      encoding: "utf8",
    }).stdout.trim()
  : "";

/** Runs one python3 process over all lines and returns one output line per input line. */
export function runPython(mode: "value" | "text", lines: readonly string[]): string[] {
  if (lines.length === 0) return [];
  const r = spawnSync("python3", [script, mode], {
    input: lines.join("\n"),
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  const out = r.stdout.split("\n");
  if (out.length !== lines.length) throw new Error(`python3 answered ${out.length} lines for ${lines.length}`);
  return out;
}

const FLOAT_MARK = "\u0000float:";
const MARKED = /"\\u0000float:(-?\d+)"/g;

/**
 * JSON text that Python reads as the value canonicalize sees. JSON.stringify
 * writes an integral double such as 1e20 as "100000000000000000000", which
 * Python would read as an int; canonicalize treats integral numbers at or
 * beyond 2^53 as floats, so those are sent with ".0".
 */
export function toPythonJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "number" && Number.isInteger(v) && !Number.isSafeInteger(v) && Math.abs(v) < 1e21
      ? FLOAT_MARK + String(v)
      : v,
  ).replace(MARKED, "$1.0");
}
