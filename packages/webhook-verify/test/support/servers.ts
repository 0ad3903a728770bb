import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  const probe: Server = createServer();
  probe.listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The base URL of a server already listening on 127.0.0.1. */
export function urlOf(server: { address(): unknown }): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface RedisServer {
  url: string;
  port: number;
  /** The server's working directory (its AOF and RDB files live there). */
  dir: string;
  /** Kills the process with `signal` (SIGKILL: a crash, no final save) and waits for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port and directory, with the same settings. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface RedisServerOptions {
  /** Append-only file on, with this fsync policy; default off (no persistence at all). */
  appendfsync?: "always" | "everysec" | "no";
}

/** Whether redis-server is installed; CI installs it, so there its absence is a failure, not a skip. */
export function redisServerAvailable(): boolean {
  const found = spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;
  if (!found && process.env.CI) {
    throw new Error(
      "redis-server is not installed, and CI must run the Redis dedup tests: apt-get install redis-server",
    );
  }
  if (!found) console.warn("redis-server is not installed: skipping the Redis tests (apt-get install redis-server)");
  return found;
}

/**
 * A throwaway redis-server on a free loopback port, in its own temporary
 * directory; without persistence unless `appendfsync` turns AOF on.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "webhook-verify-redis-"));
  const persistence = options.appendfsync
    ? ["--appendonly", "yes", "--appendfsync", options.appendfsync]
    : ["--appendonly", "no"];
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", ...persistence];
  let child = await launch(args);
  const kill = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    child.kill(signal);
    await exited;
  };
  return {
    port,
    dir,
    url: `redis://127.0.0.1:${port}`,
    kill,
    async restart() {
      await kill();
      child = await launch(args);
    },
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function launch(args: string[]): Promise<ChildProcess> {
  const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk;
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
  child.removeAllListeners("exit");
  child.stdout!.resume();
  return child;
}
