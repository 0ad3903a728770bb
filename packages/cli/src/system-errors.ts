// What the operating system refused, said as what to do: a port already taken names the port and the flag that
// picks another, instead of Node's "listen EADDRINUSE: address already in use 127.0.0.1:4020".
import { createServer } from "node:net";
import { CommandFailure } from "./output.js";

interface ListenError {
  code?: string;
  syscall?: string;
  address?: string;
  port?: number;
}

/**
 * The one-line failure for a listen the system refused, or undefined for any other error.
 *
 * @example
 * listenFailure(Object.assign(new Error("listen EADDRINUSE"), { code: "EADDRINUSE", syscall: "listen", address: "127.0.0.1", port: 4020 }));
 * // CommandFailure PORT_IN_USE: "port 4020 on 127.0.0.1 is already in use: stop what holds it, or pick another port with --port (--port 0 picks a free one)"
 */
export function listenFailure(error: unknown): CommandFailure | undefined {
  const e = error as ListenError | undefined;
  if (e?.syscall !== "listen" || e.port === undefined) return undefined;
  const where = `port ${e.port} on ${e.address ?? "this host"}`;
  if (e.code === "EADDRINUSE")
    return new CommandFailure(
      "PORT_IN_USE",
      `${where} is already in use: stop what holds it, or pick another port with --port (--port 0 picks a free one)`,
    );
  if (e.code === "EACCES")
    return new CommandFailure(
      "PORT_DENIED",
      `${where} needs privileges this process does not have: pick a port above 1023 with --port`,
    );
  if (e.code === "EADDRNOTAVAIL")
    return new CommandFailure("HOST_UNAVAILABLE", `${e.address} is not an address of this machine: check --host`);
  return undefined;
}

/**
 * Rejects with the system's listen error when `port` on `host` cannot be listened on, so a command that hands the
 * port to another program (Prism) can say so in its own words before that program prints its own.
 *
 * @example
 * await ensurePortFree("127.0.0.1", 4010); // rejects with EADDRINUSE when something listens there
 */
export function ensurePortFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
