// A Verdaccio of our own for one release check: temp config and storage, 127.0.0.1, a free port of the range.
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

function free(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

async function freePort([first, last]) {
  for (let port = first; port <= last; port++) if (await free(port)) return port;
  throw new Error(`no free port in ${first}-${last}`);
}

/**
 * Starts Verdaccio (the workspace's pinned one) in `dir`; resolves once it answers.
 * @returns {{ url: string, stop: () => Promise<void> }}
 */
export async function startRegistry({ verdaccio, dir, config, ports, log }) {
  mkdirSync(dir, { recursive: true });
  copyFileSync(config, join(dir, "config.yaml"));
  writeFileSync(join(dir, "htpasswd"), "");
  const port = await freePort(ports);
  const url = `http://127.0.0.1:${port}/`;
  const child = spawn(
    process.execPath,
    [verdaccio, "--config", join(dir, "config.yaml"), "--listen", `127.0.0.1:${port}`],
    {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, VERDACCIO_HANDLE_KILL_SIGNALS: "true" },
    },
  );
  child.stdout.on("data", (d) => log(String(d)));
  child.stderr.on("data", (d) => log(String(d)));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}-/ping`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error("verdaccio did not answer within 60 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
