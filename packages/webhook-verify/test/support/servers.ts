import { spawn, spawnSync } from "node:child_process";
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
  stop(): Promise<void>;
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

/** A throwaway redis-server on a free loopback port, without persistence. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
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
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}
