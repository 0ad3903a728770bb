// Finding and starting Prism (@stoplight/prism-cli), the cli's optional peer dependency behind `exchange-kit mock`.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";

export const PRISM_PACKAGE = "@stoplight/prism-cli";
/** The range the cli is tested with; the install hint and peerDependencies say the same. */
export const PRISM_RANGE = "^5.16.0";

export interface PrismInstall {
  /** The JavaScript file of Prism's `prism` bin. */
  bin: string;
  version: string;
  /** Prism's `engines.node`, e.g. ">=24.18.0". */
  nodeRange: string | undefined;
}

/**
 * Prism as installed next to the user's project (searched from `dirs`, in order), or undefined when no directory
 * reaches it.
 *
 * @example
 * const prism = findPrism([process.cwd()]); // { bin: ".../prism-cli/dist/index.js", version: "5.16.0", ... }
 */
export function findPrism(dirs: readonly string[]): PrismInstall | undefined {
  for (const dir of dirs) {
    let manifest: string;
    try {
      // A file name inside `dir` makes require search dir/node_modules, then its parents.
      manifest = createRequire(join(resolve(dir), "noop.js")).resolve(`${PRISM_PACKAGE}/package.json`);
    } catch {
      continue;
    }
    const pkg = JSON.parse(readFileSync(manifest, "utf8")) as {
      version: string;
      bin?: string | Record<string, string>;
      engines?: { node?: string };
    };
    const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.prism;
    if (!bin) continue;
    return { bin: join(dirname(manifest), bin), version: pkg.version, nodeRange: pkg.engines?.node };
  }
  return undefined;
}

export interface PrismOptions {
  spec: string;
  host: string;
  port: number;
  dynamic: boolean;
  /** Every line Prism prints (its request log with validation violations). */
  onLine(line: string): void;
}

export interface RunningPrism {
  /** The base URL Prism reported (the real port when 0 was asked for). */
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code (or signal) once Prism has stopped. */
  exited: Promise<string>;
  stop(): Promise<void>;
}

const READY = /Prism is listening on (https?:\/\/\S+)/;
/**
 * Loaded into Prism's process with `node --import`: Prism exits when the cli that started it is gone. The cli
 * holds the write end of Prism's stdin; when the cli dies, even by SIGKILL where no handler of ours runs, the
 * kernel closes that end and the read ends. Without it, a killed `exchange-kit mock` left Prism holding its port.
 */
const EXIT_WITH_PARENT = `data:text/javascript,${encodeURIComponent(
  'process.stdin.on("close", () => process.exit(0)); process.stdin.resume();',
)}`;

/**
 * Starts `prism mock` with request validation and `--errors` (a response example that violates its own schema is a
 * 500, not a silent pass), and resolves once Prism listens.
 */
export function startPrism(prism: PrismInstall, options: PrismOptions, readyTimeoutMs = 60_000): Promise<RunningPrism> {
  const args = [
    "--import",
    EXIT_WITH_PARENT,
    prism.bin,
    "mock",
    options.spec,
    "--host",
    options.host,
    "--port",
    String(options.port),
    "--errors",
  ];
  if (options.dynamic) args.push("--dynamic");
  // stdin is a pipe from this process only so that Prism notices when the cli is gone (EXIT_WITH_PARENT).
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<string>((done) => child.once("exit", (code, signal) => done(signal ?? `code ${code}`)));
  const tail: string[] = [];
  return new Promise((resolveReady, reject) => {
    let ready = false;
    const onLine = (line: string) => {
      tail.push(line);
      if (tail.length > 20) tail.shift();
      options.onLine(line);
      const match = READY.exec(line);
      if (!ready && match?.[1]) {
        ready = true;
        clearTimeout(timer);
        resolveReady({ url: match[1].replace(/\/$/, ""), child, exited, stop });
      }
    };
    createInterface({ input: child.stdout! }).on("line", onLine);
    createInterface({ input: child.stderr! }).on("line", onLine);
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`Prism did not start within ${readyTimeoutMs / 1000} s:\n${tail.join("\n")}`));
    }, readyTimeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`could not start Prism: ${error.message}`));
    });
    void exited.then((how) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`Prism exited (${how}) before it was ready:\n${tail.join("\n")}`));
    });
  });

  async function stop(): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    // Prism stops at once on SIGTERM; never hang on one that does not.
    const force = setTimeout(() => child.kill("SIGKILL"), 3000);
    await exited;
    clearTimeout(force);
  }
}
