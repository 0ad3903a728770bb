import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

// Reads the webhook part of the OpenAPI spec straight from its YAML files, so that
// the tests check this package against the spec itself rather than a copy.

const openapi = fileURLToPath(new URL("../../../../openapi/", import.meta.url));

export interface SpecExample {
  webhook: string;
  name: string;
  value: { type: string; id: string; event: string; timestamp: string; metadata: Record<string, unknown> };
}

/** Every request-body example of every webhook, named `<file>/<example>`. */
export function specExamples(): SpecExample[] {
  const examples: SpecExample[] = [];
  for (const file of readdirSync(`${openapi}webhooks`).sort()) {
    const doc = parse(readFileSync(`${openapi}webhooks/${file}`, "utf8"));
    const content = doc.post.requestBody.content["application/json"];
    for (const [name, example] of Object.entries<{ value: SpecExample["value"] }>(content.examples)) {
      examples.push({ webhook: file.replace(/\.yaml$/, ""), name, value: example.value });
    }
  }
  return examples;
}

interface JsonSchema {
  required?: string[];
  properties?: Record<string, { const?: string; enum?: string[]; type?: string | string[] }>;
  then?: { required?: string[] };
  if?: { properties?: Record<string, { const?: string }> };
}

export interface SpecEventSchema {
  name: string;
  type: string;
  event: string;
  metadata: JsonSchema;
}

/** Every per-pair event schema (components/schemas/*Event.yaml with a const type and event). */
export function specEventSchemas(): SpecEventSchema[] {
  const dir = `${openapi}components/schemas/`;
  const schemas: SpecEventSchema[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith("Event.yaml"))
    .sort()) {
    const schema = parse(readFileSync(dir + file, "utf8"));
    const type = schema.properties?.type?.const;
    const event = schema.properties?.event?.const;
    if (typeof type === "string" && typeof event === "string") {
      schemas.push({ name: file.replace(/\.yaml$/, ""), type, event, metadata: schema.properties.metadata });
    }
  }
  return schemas;
}
