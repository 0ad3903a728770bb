// The sandbox's spec is the published one with overlays/sandbox.yaml applied (OpenAPI Overlay 1.0). The overlay is
// applied by openapi-format (a maintained implementation, with the JSONPath of jsonpathly), not by our own code.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openapiOverlay, parseString } from "openapi-format";

export const sandboxOverlayFile = join(
  resolve(dirname(fileURLToPath(import.meta.url)), ".."),
  "overlays",
  "sandbox.yaml",
);

interface OverlayAction {
  target: string;
  description?: string;
}

/** Thrown when an action of the overlay matches nothing in the document (a target renamed or removed). */
export class UnusedOverlayActionError extends Error {}

/** An overlay document parsed from its YAML text. */
export async function parseOverlay(text: string): Promise<Record<string, unknown>> {
  const parsed = await parseString(text);
  if (typeof parsed !== "object" || parsed instanceof Error) throw new Error("the overlay is not a YAML mapping");
  return parsed;
}

/** The sandbox's overlay document, parsed. */
export async function readSandboxOverlay(): Promise<Record<string, unknown>> {
  return parseOverlay(readFileSync(sandboxOverlayFile, "utf8"));
}

/**
 * The bundled document with the sandbox's overlay applied (a new object; `document` is not changed).
 *
 * @example
 * const sandbox = await applySandboxOverlay(JSON.parse(readFileSync("dist/openapi.json", "utf8")));
 */
export async function applySandboxOverlay<T extends object>(
  document: T,
  overlay?: Record<string, unknown>,
): Promise<T> {
  const overlaySet = (overlay ?? (await readSandboxOverlay())) as { actions: [] };
  const copy = structuredClone(document) as unknown as Parameters<typeof openapiOverlay>[0];
  const { data, resultData } = await openapiOverlay(copy, { overlaySet });
  const unused = (resultData.unusedActions ?? []) as OverlayAction[];
  if (unused.length > 0) {
    throw new UnusedOverlayActionError(
      `the sandbox overlay has actions that match nothing: ${unused.map((a) => a.target).join(", ")}`,
    );
  }
  return data as unknown as T;
}
