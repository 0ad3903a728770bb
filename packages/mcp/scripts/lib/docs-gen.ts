// The source of src/generated/docs.ts: the markdown resources. Each guide of docs/guides/ as it is, and one
// reference page per operation written from the spec (what the tool description says, plus the parameters and
// the body's component), so an agent reads the reference without the repository.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isSchemaObject } from "@exchange-kit/spec-tools/json-schema";
import { deref, type OpenApiSpec, type Parameter } from "@exchange-kit/spec-tools/spec";
import type { ToolSource } from "./tools-gen.ts";

/** One markdown resource. */
export interface DocSource {
  uri: string;
  name: string;
  title: string;
  text: string;
}

/** Each guide of `guidesDir` (`*.md`, by file name), titled by its first heading. */
export function guideDocs(guidesDir: string): DocSource[] {
  return readdirSync(guidesDir)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((file) => {
      const text = readFileSync(join(guidesDir, file), "utf8");
      const slug = file.slice(0, -3);
      const title = /^# (.+)$/m.exec(text)?.[1]?.trim() ?? slug;
      return { uri: `exchange-kit://guides/${slug}`, name: `guide-${slug}`, title, text };
    });
}

const cell = (text: string | undefined) => (text ?? "").replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();

function parameterRows(spec: OpenApiSpec, tool: ToolSource): string[] {
  const operation = spec.paths?.[tool.path] as Record<string, { parameters?: unknown[] }> | undefined;
  const parameters = (operation?.[tool.method.toLowerCase()]?.parameters ?? []).map(
    (p) => deref(spec, p as Parameter) as Parameter & { description?: string },
  );
  if (parameters.length === 0) return [];
  return [
    "## Parameters",
    "",
    "| name | in | required | description |",
    "| - | - | - | - |",
    ...parameters.map((p) => `| \`${p.name}\` | ${p.in} | ${p.required ? "yes" : "no"} | ${cell(p.description)} |`),
    "",
  ];
}

function bodyLines(tool: ToolSource): string[] {
  const body = tool.inputSchema.properties?.body;
  if (body === undefined) return [];
  const name = isSchemaObject(body) && body.$ref ? body.$ref.replace("#/$defs/", "") : undefined;
  const description = isSchemaObject(body) ? body.description : undefined;
  return [
    "## Body",
    "",
    `${name ? `\`${name}\`` : "An object"}${tool.inputSchema.required?.includes("body") ? " (required)" : ""}. ${cell(description)}`,
    "The exact JSON Schema is the tool's `inputSchema` (`body`).",
    "",
  ];
}

/**
 * The reference page of one operation.
 *
 * @example
 * operationDoc(spec, tool).uri; // "exchange-kit://reference/getCustomer"
 */
export function operationDoc(spec: OpenApiSpec, tool: ToolSource): DocSource {
  const lines = [
    `# ${tool.title}`,
    "",
    `\`${tool.method} ${tool.path}\` — operationId \`${tool.name}\` (tool \`${tool.name}\`), tag ${tool.tag}, retry class \`${tool.idempotency}\`.`,
    "",
    tool.description.slice(tool.title.length).trim(),
    "",
    ...parameterRows(spec, tool),
    ...bodyLines(tool),
  ];
  return {
    uri: `exchange-kit://reference/${tool.name}`,
    name: `reference-${tool.name}`,
    title: `${tool.title} (${tool.name})`,
    text: `${lines.join("\n").trimEnd()}\n`,
  };
}
