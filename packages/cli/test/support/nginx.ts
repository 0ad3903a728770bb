// Debian's nginx for the tests (the `nginx` package .ci/run installs), run in the foreground from a temporary
// prefix with a configuration the test gives, on 127.0.0.1 only; stopped (SIGTERM; its workers exit with it)
// when the test is done.
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@exchange-kit/test-servers/postgres";

const NGINX = "/usr/sbin/nginx";

export interface Nginx {
  readonly process: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

export { freePort };

export const nginxInstalled = (): boolean => existsSync(NGINX);

/**
 * Starts nginx with `config` (a whole nginx.conf whose relative paths are under a fresh prefix directory) and
 * resolves once `ready` answers.
 *
 * @example
 * const nginx = await startNginx(config, async () => (await fetch(url)).ok);
 */
export async function startNginx(config: string, ready: () => Promise<boolean>): Promise<Nginx> {
  if (!nginxInstalled()) throw new Error("nginx is not installed: apt-get install nginx (.ci/run does)");
  const prefix = mkdtempSync(join(tmpdir(), "nginx-"));
  // As root, nginx's workers run as nobody and write their temporary files under the prefix.
  chmodSync(prefix, 0o777);
  writeFileSync(join(prefix, "nginx.conf"), config);
  const child = spawn(NGINX, ["-p", prefix, "-c", "nginx.conf", "-e", "stderr", "-g", "daemon off;"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (chunk) => (err += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    // SIGTERM: a fast shutdown, which does not wait for open streams as a graceful one (SIGQUIT) would.
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    rmSync(prefix, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  while (!(await ready().catch(() => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not start: ${err}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { process: child, stderr: () => err, stop };
}
