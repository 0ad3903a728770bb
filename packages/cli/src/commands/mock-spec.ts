// Which spec `exchange-kit mock` hands to Prism: the service's (the installed @exchange-kit/openapi), the sandbox's
// (--sandbox), or a file the user names (--spec). Prism takes a file, and the sandbox's members it requires where
// the interface leaves them open are an `x-sandbox-required` list that Prism cannot read: the sandbox's spec is
// written folded (as the sandbox itself reads it) to a temporary file, removed when the mock stops.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { foldSandboxRequired, readSandboxSpec, readSpec, specFiles } from "@exchange-kit/openapi";
import { UsageError } from "../output.js";

export interface ServedSpec {
  /** The file Prism reads. */
  file: string;
  /** The spec file the ready line names: the installed package's, even where Prism reads a folded copy. */
  label: string;
  /** Whose rules the mock holds requests to: the real service's, the sandbox's, or a file's (`custom`). */
  contract: "service" | "sandbox" | "custom";
  /** The spec's version when it is the installed one. */
  version: string | undefined;
  /** Removes what serving it left on disk (the sandbox's folded copy). */
  dispose(): void;
}

function sandboxSpec(): ServedSpec {
  const dir = mkdtempSync(join(tmpdir(), "exchange-kit-mock-"));
  const file = join(dir, "sandbox-openapi.json");
  const document = foldSandboxRequired(readSandboxSpec());
  writeFileSync(file, JSON.stringify(document));
  return {
    file,
    label: specFiles.sandboxJson,
    contract: "sandbox",
    version: document.info.version,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The spec to serve for --spec and --sandbox (at most one of them): a named file must exist.
 *
 * @example
 * const spec = servedSpec(undefined, true); // the sandbox's spec, folded into a temporary file
 * spec.dispose();
 */
export function servedSpec(file: string | boolean | undefined, sandbox: boolean): ServedSpec {
  if (sandbox && typeof file === "string") {
    throw new UsageError("--sandbox serves the sandbox's spec; --spec serves a file: give one of them");
  }
  if (sandbox) return sandboxSpec();
  const named = typeof file === "string" ? resolve(file) : undefined;
  if (named !== undefined && !existsSync(named)) throw new UsageError(`--spec: no file at ${named}`);
  return {
    file: named ?? specFiles.yaml,
    label: named ?? specFiles.yaml,
    contract: named ? "custom" : "service",
    version: named ? undefined : readSpec().info.version,
    dispose: () => {},
  };
}
