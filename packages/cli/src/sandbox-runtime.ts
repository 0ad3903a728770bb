// The sandbox keeps its state in node:sqlite, which Node has from 22.13 on; every other command runs on Node 20.19.
// So the sandbox is imported only by the commands that run it (sandbox, demo), and only after the running Node is
// checked against the range the installed @exchange-kit/sandbox declares: on Node 20 they stop with one line
// instead of ERR_UNKNOWN_BUILTIN_MODULE and a stack.
import { createRequire } from "node:module";
import { meetsNodeRange } from "./node-range.js";
import { CommandFailure } from "./output.js";

type SandboxModule = typeof import("@exchange-kit/sandbox");

/** The `engines.node` of the installed @exchange-kit/sandbox (e.g. ">=22.13"). */
export function sandboxNodeRange(): string | undefined {
  const manifest = createRequire(import.meta.url)("@exchange-kit/sandbox/package.json") as {
    engines?: { node?: string };
  };
  return manifest.engines?.node;
}

/**
 * The one line a command that runs the sandbox prints on a Node older than the sandbox's range; undefined when the
 * Node is recent enough.
 *
 * @example
 * unsupportedNodeMessage("sandbox", "20.20.2", ">=22.13");
 * // "exchange-kit sandbox needs Node >=22.13 (the sandbox stores its state with node:sqlite); this is Node 20.20.2 ..."
 */
export function unsupportedNodeMessage(
  command: string,
  version: string,
  range: string | undefined,
): string | undefined {
  if (meetsNodeRange(version, range)) return undefined;
  return (
    `exchange-kit ${command} needs Node ${range} (the sandbox stores its state with node:sqlite); ` +
    `this is Node ${version}. The other commands run on Node 20.19 or later.`
  );
}

/**
 * Imports @exchange-kit/sandbox once the running Node is one it supports.
 *
 * @example
 * const { createSandbox } = await loadSandbox("sandbox");
 */
export async function loadSandbox(command: string): Promise<SandboxModule> {
  const message = unsupportedNodeMessage(command, process.versions.node, sandboxNodeRange());
  if (message) throw new CommandFailure("NODE_UNSUPPORTED", message);
  return import("@exchange-kit/sandbox");
}
