// The schemas of the operations (request body, JSON responses by status) and of the webhook bodies.
import { findDiscriminator } from "../lib/discriminator.ts";
import type { JsonSchema } from "@exchange-kit/spec-tools/json-schema";
import { propertyKey as key } from "../lib/names.ts";
import { jsonMedia, listOperations, type Referable, type Response } from "@exchange-kit/spec-tools/spec";
import type { Compiler, Zod } from "./context.ts";
import { list, literal } from "./source.ts";

const RESPONSES = "#/components/responses/";

/** The members of `operationSchemas` and of `responseSchemas` (the shared responses the operations use). */
export interface OperationSchemas {
  operations: string[];
  shared: string[];
}

/** The operations' schemas, in document order; a shared response is declared once and referenced by name. */
export function operationSchemas(compiler: Compiler): OperationSchemas {
  const { doc } = compiler;
  const lines: string[] = [];
  const responseComponents = doc.components?.responses ?? {};
  const sharedResponses = new Map<string, string | undefined>();
  const responseSchema = (response: Referable<Response> | undefined, where: string) => {
    const media = jsonMedia(doc, response);
    if (!media) return undefined;
    return compiler.translate(media.schema ?? {}, undefined, where).code;
  };
  const responseCode = (response: Referable<Response>, where: string) => {
    if ("$ref" in response && typeof response.$ref === "string" && response.$ref.startsWith(RESPONSES)) {
      const name = response.$ref.slice(RESPONSES.length);
      if (!sharedResponses.has(name)) {
        sharedResponses.set(name, responseSchema(responseComponents[name], `${RESPONSES}${name}`));
      }
      return sharedResponses.get(name) === undefined ? undefined : `responseSchemas.${key(name)}`;
    }
    return responseSchema(response, where);
  };
  for (const { key: path, method, operation } of listOperations(doc)) {
    const id = operation.operationId;
    if (!id) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
    const where = `#/paths/${path}/${method}`;
    const members: string[] = [];
    const bodySchema = jsonMedia(doc, operation.requestBody)?.schema;
    if (bodySchema !== undefined)
      members.push(`requestBody: ${compiler.translate(bodySchema, undefined, `${where}/requestBody`).code}`);
    const responses: string[] = [];
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      const code = responseCode(response, `${where}/responses/${status}`);
      if (code !== undefined) responses.push(`${literal(status)}: ${code}`);
    }
    members.push(`responses: ${list(responses, "{", "}")}`);
    lines.push(`${key(id)}: ${list(members, "{", "}")}`);
  }
  const shared = [...sharedResponses]
    .filter(([, code]) => code !== undefined)
    .map(([name, code]) => `${key(name)}: ${code}`);
  return { operations: lines, shared };
}

/** A webhook's body: its schema and the schema's expression. */
export interface WebhookBody {
  name: string;
  schema: JsonSchema;
  result: Zod;
}

/** The webhooks that have a JSON body, in document order. */
export function webhookBodies(compiler: Compiler): WebhookBody[] {
  const bodies: WebhookBody[] = [];
  for (const { key: name, operation } of listOperations(compiler.doc, "webhooks")) {
    const schema = jsonMedia(compiler.doc, operation.requestBody)?.schema;
    if (schema === undefined) continue;
    bodies.push({ name, schema, result: compiler.translate(schema, undefined, `#/webhooks/${name}/requestBody`) });
  }
  return bodies;
}

/** The union of the webhook bodies (each referenced by name in webhookSchemas), and the property telling them apart. */
export function webhookUnion(
  compiler: Compiler,
  bodies: readonly WebhookBody[],
): { code: string; discriminator: string | undefined } {
  const found = findDiscriminator(
    compiler.doc,
    bodies.map((w) => w.schema),
  );
  const codes = bodies.map((w) => `webhookSchemas.${key(w.name)}`);
  const code =
    found && bodies.every((w) => w.result.duOk)
      ? list([literal(found.name), list(codes, "[", "]")], "z.discriminatedUnion(", ")")
      : codes.length === 1
        ? (codes[0] as string)
        : `z.union(${list(codes, "[", "]")})`;
  return { code, discriminator: found?.name };
}
