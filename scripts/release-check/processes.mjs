// Child processes of the release check: commands that must succeed, and servers read line by line.
import { spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";

/** Runs a command to completion; throws with its output when it fails. */
export function run(command, args, { cwd, env = process.env, log = () => {} } = {}) {
  // A step that hangs (a registry that never answers) is killed after ten minutes rather than holding CI.
  const result = spawnSync(command, args, {
    cwd,
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: 10 * 60_000,
  });
  log(`$ ${command} ${args.join(" ")}  (in ${cwd})\n${result.stdout ?? ""}${result.stderr ?? ""}`);
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim().split("\n").slice(-40).join("\n");
    throw new Error(`${command} ${args.join(" ")} exited with ${result.status ?? result.signal} in ${cwd}\n${output}`);
  }
  return result.stdout;
}

/**
 * Starts a long-running process whose stdout is JSON lines; `next(predicate)` waits for a matching line.
 * Every process started here is stopped by `stop()` (the release check calls it in `finally`).
 */
export function startJsonLines(command, args, { cwd, env = process.env, log = () => {} }) {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  const lines = [];
  const waiters = new Set();
  createInterface({ input: child.stdout }).on("line", (text) => {
    log(`${text}\n`);
    let value;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    lines.push(value);
    for (const w of waiters) w();
  });
  child.stderr.on("data", (d) => log(String(d)));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    lines,
    /** Resolves with the first line (seen or to come) for which `predicate(line, lines)` holds. */
    next(predicate, what, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find((line) => predicate(line, lines));
          if (found !== undefined) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          } else if (child.exitCode !== null) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`${command} exited (${child.exitCode}) before ${what}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${what} within ${timeoutMs} ms; lines so far: ${JSON.stringify(lines)}`));
        }, timeoutMs);
        waiters.add(check);
        child.once("exit", check);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
