#!/usr/bin/env node
// Emits src/generated/zod.ts: one zod schema per component schema of the bundled spec (`<Alias>Schema`), the
// webhook event union (`WebhookEventSchema`), the webhook bodies by name, and the request body and response
// schemas of every operation. Run alone (`node scripts/generate-zod.mjs`) or through scripts/generate.mjs.
//
// JSON Schema -> zod 4, validation only (defaults are never applied, unknown keys are never stripped):
//   type (and type arrays, null)   z.string() / z.number() / z.int() / z.boolean() / z.null() / .nullable() / z.union
//   properties, required           z.looseObject({...}) with .optional() for members not required; a required
//                                  member the schema does not describe is z.unknown() (present, any value)
//   additionalProperties           absent/true: z.looseObject (unknown keys kept); false: z.strictObject;
//                                  a schema: .catchall(schema), or z.record(z.string(), schema) with no properties
//   propertyNames                  z.record(keySchema, ...) without properties, else a check of every key
//   min/maxProperties              a check of the key count
//   dependentRequired              a check that each present member brings the members it depends on
//   enum, const                    z.enum / z.literal / z.null() / z.union of literals
//   format                         uuid: z.guid() (any 8-4-4-4-12 hex, as JSON Schema validators check it),
//                                  date-time: z.iso.datetime({ offset: true }) (RFC 3339), date: z.iso.date(),
//                                  email: z.email(), uri: z.url(), ipv4: z.ipv4(), ipv6: z.ipv6();
//                                  other formats are annotations and are not checked
//   pattern, min/maxLength         .regex(new RegExp(pattern, "u")), .min(), .max()
//   minimum, maximum, exclusive*,  .gte(), .lte(), .gt(), .lt(), .multipleOf()
//   multipleOf
//   items, min/maxItems,           z.array(items).min().max(), a uniqueness check
//   uniqueItems
//   allOf                          merged into one schema (an object with the members' properties; a property
//                                  declared twice gets both constraints); members that cannot merge are
//                                  z.intersection-ed and also checked one by one
//   anyOf, oneOf                   the parent's own keywords are distributed into each member; members pinned
//                                  apart by a property (OpenAPI `discriminator`, or found) give
//                                  z.discriminatedUnion, else z.union; oneOf whose members may overlap also
//                                  checks that exactly one member matches
//   not, if/then/else              checks (.refine / .superRefine) with the subschemas
//   $ref                           the component's schema by name; z.lazy(() => ...) for a reference back into a
//                                  cycle
//   no type                        typed by its keywords when they belong to one type (OpenAPI usage: a schema
//                                  with `properties` is an object), or by the parent's type in a subschema of
//                                  anyOf/oneOf/allOf/not/if/then/else
// Any other keyword is an error, so a spec change the generator does not understand fails generation.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  SUPPORTED,
  admittedTypes,
  assertionKeys,
  findDiscriminator,
  foldAllOf,
  impliedTypes,
  isPlainObject,
  isTrivial,
  jsonType,
  mergeSchemas,
  typeList,
} from "./lib/json-schema.mjs";
import { WEBHOOK_UNION, componentAliases, docComment, propertyKey as key, zodName } from "./lib/names.mjs";
import { bundleSpec, jsonMedia, listOperations, packageDir, schemaRefName } from "./lib/spec.mjs";

const literal = (value) => JSON.stringify(value);

function indentLines(code, by) {
  return code.replace(/\n/g, `\n${by}`);
}

function list(items, open, close) {
  if (items.length === 0) return `${open}${close}`;
  const pad = open.endsWith("{") ? " " : "";
  const single = `${open}${pad}${items.join(", ")}${pad}${close}`;
  if (!single.includes("\n") && single.length <= 100) return single;
  return `${open}\n${items.map((item) => `  ${indentLines(item, "  ")},`).join("\n")}\n${close}`;
}

const FORMATS = {
  uuid: "z.guid()",
  "date-time": "z.iso.datetime({ offset: true })",
  date: "z.iso.date()",
  email: "z.email()",
  uri: "z.url()",
  ipv4: "z.ipv4()",
  ipv6: "z.ipv6()",
};

class ZodGenerator {
  constructor(spec) {
    this.doc = spec;
    this.aliases = componentAliases(spec);
    this.schemas = spec.components?.schemas ?? {};
    /** componentName -> { code, duOk } once emitted */
    this.done = new Map();
    this.inProgress = new Set();
    /** components referenced lazily from inside a cycle: their declaration gets a type annotation */
    this.lazyTargets = new Set();
    this.declarations = [];
    this.helpers = new Set();
  }

  // ---- components -------------------------------------------------------------------------------------------

  ensure(name) {
    if (this.done.has(name)) return this.done.get(name);
    if (!(name in this.schemas)) throw new Error(`Reference to unknown component schema ${name}`);
    if (this.inProgress.has(name)) return undefined;
    this.inProgress.add(name);
    const schema = this.schemas[name];
    const result = this.translate(schema, undefined, `#/components/schemas/${name}`);
    this.inProgress.delete(name);
    const id = zodName(this.aliases.get(name));
    const annotation = this.lazyTargets.has(name) ? ": z.ZodType<unknown>" : "";
    const doc = [schema.title && schema.title !== name ? schema.title : undefined, schema.description]
      .filter(Boolean)
      .join("\n\n");
    this.declarations.push(
      `${docComment(doc || `The ${name} component.`)}export const ${id}${annotation} = ${result.code};`,
    );
    const entry = { code: id, duOk: result.duOk && annotation === "" };
    this.done.set(name, entry);
    return entry;
  }

  ref(ref) {
    const name = schemaRefName(ref);
    if (name === undefined) throw new Error(`Only references to components.schemas are supported, got ${ref}`);
    const entry = this.ensure(name);
    if (entry) return entry;
    this.lazyTargets.add(name);
    return { code: `z.lazy(() => ${zodName(this.aliases.get(name))})`, duOk: false };
  }

  // ---- translation ------------------------------------------------------------------------------------------

  /** JSON Schema -> { code, duOk } (duOk: usable as a z.discriminatedUnion option). */
  translate(schema, inherited, where) {
    if (schema === true || schema === undefined) return { code: "z.unknown()", duOk: false };
    if (schema === false) return { code: "z.never()", duOk: false };
    if (!isPlainObject(schema)) throw new Error(`${where}: a schema must be an object or a boolean`);
    for (const k of Object.keys(schema)) {
      if (!SUPPORTED.has(k) && !k.startsWith("x-")) throw new Error(`${where}: unsupported keyword "${k}"`);
    }
    if (typeof schema.$ref === "string") {
      const siblings = Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "$ref"));
      if (isTrivial(siblings)) return this.ref(schema.$ref);
      return this.translate({ allOf: [{ $ref: schema.$ref }, siblings] }, inherited, where);
    }
    if (isTrivial(schema)) return { code: "z.unknown()", duOk: false };

    if (schema.type === undefined && !("const" in schema) && !schema.enum) {
      const types = inherited ?? impliedTypes(schema);
      if (
        types &&
        assertionKeys(schema).some((k) => !["allOf", "anyOf", "oneOf", "not", "if", "then", "else"].includes(k))
      ) {
        schema = { ...schema, type: types.length === 1 ? types[0] : types };
      }
    }
    if (schema.nullable === true) {
      const { nullable, ...rest } = schema;
      const types = typeList(rest.type);
      schema = types ? { ...rest, type: [...types, "null"] } : rest;
      if ("enum" in schema) schema.enum = [...schema.enum, null];
    }
    const ownTypes = typeList(schema.type) ?? inherited;

    if (Array.isArray(schema.allOf)) {
      const { schema: merged, rest } = foldAllOf(this.doc, schema);
      const head = this.translate(merged, inherited, where);
      if (rest.length === 0) return head;
      const parts = [head, ...rest.map((m, i) => this.translate(m, ownTypes, `${where}/allOf/${i}`))];
      this.helpers.add("allOf");
      return { code: parts.map((p) => p.code).reduce((acc, c) => `allOf(${acc}, ${c})`), duOk: false };
    }

    for (const keyword of ["oneOf", "anyOf"]) {
      if (!Array.isArray(schema[keyword])) continue;
      const { [keyword]: members, discriminator, ...base } = schema;
      const distributed = members.map((m) => (isTrivial(base) ? m : mergeSchemas(this.doc, base, m)));
      if (distributed.every((m) => m !== undefined)) {
        return this.union(keyword, distributed, discriminator, ownTypes, where);
      }
      const baseCode = this.translate(base, inherited, where);
      const union = this.union(keyword, members, discriminator, typeList(base.type) ?? ownTypes, where);
      this.helpers.add("allOf");
      return { code: `allOf(${baseCode.code}, ${union.code})`, duOk: false };
    }

    let result = this.core(schema, where);
    const conditionTypes = typeList(schema.type);
    if (schema.not !== undefined) {
      const not = this.translate(schema.not, conditionTypes, `${where}/not`);
      this.helpers.add("not");
      result = { code: `${result.code}.check(not(${not.code}))`, duOk: result.duOk };
    }
    if (isPlainObject(schema.dependentRequired)) {
      this.helpers.add("dependentRequired");
      result = {
        code: `${result.code}.check(dependentRequired(${literal(schema.dependentRequired)}))`,
        duOk: result.duOk,
      };
    }
    if (schema.if !== undefined && (schema.then !== undefined || schema.else !== undefined)) {
      const ifCode = this.translate(schema.if, conditionTypes, `${where}/if`).code;
      const thenCode =
        schema.then === undefined ? "undefined" : this.translate(schema.then, conditionTypes, `${where}/then`).code;
      const elseCode =
        schema.else === undefined ? "undefined" : this.translate(schema.else, conditionTypes, `${where}/else`).code;
      this.helpers.add("conditional");
      result = {
        code: `${result.code}.check(${list([ifCode, thenCode, elseCode], "conditional(", ")")})`,
        duOk: result.duOk,
      };
    }
    return result;
  }

  union(keyword, members, discriminator, inheritedTypes, where) {
    const translated = members.map((m, i) => this.translate(m, inheritedTypes, `${where}/${keyword}/${i}`));
    if (members.length === 1) return translated[0];
    const found = findDiscriminator(this.doc, members, discriminator?.propertyName);
    if (discriminator?.propertyName && !found) {
      throw new Error(
        `${where}: discriminator "${discriminator.propertyName}" does not tell the ${keyword} members apart`,
      );
    }
    if (found && discriminator?.mapping) {
      for (const [value, target] of Object.entries(discriminator.mapping)) {
        const index = found.sets.findIndex((s) => s.includes(value));
        const ref = members[index]?.$ref;
        if (index < 0 || (ref !== undefined && ref !== target && schemaRefName(ref) !== target)) {
          throw new Error(`${where}: discriminator mapping ${value} -> ${target} disagrees with the members`);
        }
      }
    }
    const codes = translated.map((t) => t.code);
    if (found && translated.every((t) => t.duOk)) {
      return { code: list([literal(found.name), list(codes, "[", "]")], "z.discriminatedUnion(", ")"), duOk: true };
    }
    if (keyword === "oneOf" && !found && !this.disjointTypes(members)) {
      this.helpers.add("oneOf");
      return { code: `oneOf(${list(codes, "[", "]")})`, duOk: false };
    }
    return { code: `z.union(${list(codes, "[", "]")})`, duOk: false };
  }

  disjointTypes(members) {
    const sets = members.map((m) => admittedTypes(this.doc, m)?.map((t) => (t === "integer" ? "number" : t)));
    if (!sets.every(Boolean)) return false;
    const all = sets.flatMap((s) => [...new Set(s)]);
    return new Set(all).size === all.length;
  }

  core(schema, where) {
    if ("const" in schema) return { code: this.literals([schema.const], where), duOk: false };
    if (Array.isArray(schema.enum)) {
      const types = typeList(schema.type);
      const values = types
        ? schema.enum.filter(
            (v) => types.includes(jsonType(v)) || (jsonType(v) === "integer" && types.includes("number")),
          )
        : schema.enum;
      return { code: this.literals(values, where), duOk: false };
    }
    const types = typeList(schema.type);
    if (!types) return { code: "z.unknown()", duOk: false };
    const unique = [...new Set(types)].filter((t) => !(t === "integer" && types.includes("number")));
    const nonNull = unique.filter((t) => t !== "null");
    const parts = nonNull.map((t) => this.typed(t, schema, where));
    if (parts.length === 0) return { code: "z.null()", duOk: false };
    if (unique.includes("null") && parts.length === 1) return { code: `${parts[0].code}.nullable()`, duOk: false };
    if (unique.includes("null")) parts.push({ code: "z.null()" });
    if (parts.length === 1) return parts[0];
    return {
      code: `z.union(${list(
        parts.map((p) => p.code),
        "[",
        "]",
      )})`,
      duOk: false,
    };
  }

  literals(values, where) {
    for (const v of values) {
      if (v !== null && typeof v === "object")
        throw new Error(`${where}: object or array values in enum/const are not supported`);
    }
    if (values.length === 0) return "z.never()";
    if (values.length === 1) return values[0] === null ? "z.null()" : `z.literal(${literal(values[0])})`;
    if (values.every((v) => typeof v === "string")) return `z.enum(${list(values.map(literal), "[", "]")})`;
    return `z.union(${list(
      values.map((v) => (v === null ? "z.null()" : `z.literal(${literal(v)})`)),
      "[",
      "]",
    )})`;
  }

  typed(type, schema, where) {
    switch (type) {
      case "string": {
        let code = FORMATS[schema.format] ?? "z.string()";
        if (schema.minLength !== undefined) code += `.min(${schema.minLength})`;
        if (schema.maxLength !== undefined) code += `.max(${schema.maxLength})`;
        if (schema.pattern !== undefined) {
          new RegExp(schema.pattern, "u");
          code += `.regex(new RegExp(${literal(schema.pattern)}, "u"))`;
        }
        return { code, duOk: false };
      }
      case "integer":
      case "number": {
        let code = type === "integer" ? "z.int()" : "z.number()";
        if (schema.minimum !== undefined) code += `.gte(${schema.minimum})`;
        if (schema.maximum !== undefined) code += `.lte(${schema.maximum})`;
        if (schema.exclusiveMinimum !== undefined) code += `.gt(${schema.exclusiveMinimum})`;
        if (schema.exclusiveMaximum !== undefined) code += `.lt(${schema.exclusiveMaximum})`;
        if (schema.multipleOf !== undefined) code += `.multipleOf(${schema.multipleOf})`;
        return { code, duOk: false };
      }
      case "boolean":
        return { code: "z.boolean()", duOk: false };
      case "array": {
        if (Array.isArray(schema.items)) throw new Error(`${where}: tuple "items" arrays are not supported`);
        let code = `z.array(${this.translate(schema.items, undefined, `${where}/items`).code})`;
        if (schema.minItems !== undefined) code += `.min(${schema.minItems})`;
        if (schema.maxItems !== undefined) code += `.max(${schema.maxItems})`;
        if (schema.uniqueItems === true) {
          this.helpers.add("uniqueItems");
          code += ".check(uniqueItems())";
        }
        return { code, duOk: false };
      }
      case "object":
        return this.object(schema, where);
      default:
        throw new Error(`${where}: unknown type "${type}"`);
    }
  }

  object(schema, where) {
    const properties = schema.properties ?? {};
    const required = schema.required ?? [];
    const entries = [];
    for (const [name, sub] of Object.entries(properties)) {
      const code = this.translate(sub, undefined, `${where}/properties/${name}`).code;
      entries.push(`${key(name)}: ${code}${required.includes(name) ? "" : ".optional()"}`);
    }
    for (const name of required) {
      if (!(name in properties)) entries.push(`${key(name)}: z.unknown()`);
    }
    const extra = schema.additionalProperties;
    const keyCode =
      schema.propertyNames === undefined
        ? undefined
        : this.translate(schema.propertyNames, ["string"], `${where}/propertyNames`).code;
    let code;
    let duOk = true;
    if (entries.length === 0 && extra !== undefined && extra !== true && extra !== false) {
      code = `z.record(${keyCode ?? "z.string()"}, ${this.translate(extra, undefined, `${where}/additionalProperties`).code})`;
      duOk = false;
    } else if (entries.length === 0 && keyCode !== undefined && extra !== false) {
      code = `z.record(${keyCode}, z.unknown())`;
      duOk = false;
    } else {
      const shape = list(entries, "{", "}");
      if (extra === false) code = `z.strictObject(${shape})`;
      else if (extra === undefined || extra === true) code = `z.looseObject(${shape})`;
      else
        code = `z.object(${shape}).catchall(${this.translate(extra, undefined, `${where}/additionalProperties`).code})`;
      if (keyCode !== undefined) {
        this.helpers.add("propertyNames");
        code += `.check(propertyNames(${keyCode}))`;
      }
    }
    if (schema.minProperties !== undefined || schema.maxProperties !== undefined) {
      this.helpers.add("propertyCount");
      code += `.check(propertyCount(${schema.minProperties ?? 0}, ${schema.maxProperties ?? "Infinity"}))`;
    }
    return { code, duOk };
  }

  // ---- output -----------------------------------------------------------------------------------------------

  operations() {
    const lines = [];
    const responseComponents = this.doc.components?.responses ?? {};
    const sharedResponses = new Map();
    const responseSchema = (response, where) => {
      const media = jsonMedia(this.doc, response);
      if (!media) return undefined;
      return this.translate(media.schema ?? {}, undefined, where).code;
    };
    const responseCode = (response, where) => {
      if (typeof response.$ref === "string" && response.$ref.startsWith("#/components/responses/")) {
        const name = response.$ref.slice("#/components/responses/".length);
        if (!sharedResponses.has(name)) {
          const code = responseSchema(responseComponents[name], `#/components/responses/${name}`);
          sharedResponses.set(name, code);
        }
        return sharedResponses.get(name) === undefined ? undefined : `responseSchemas.${key(name)}`;
      }
      return responseSchema(response, where);
    };
    for (const { key: path, method, operation } of listOperations(this.doc)) {
      const id = operation.operationId;
      if (!id) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      const where = `#/paths/${path}/${method}`;
      const members = [];
      const bodySchema = jsonMedia(this.doc, operation.requestBody)?.schema;
      if (bodySchema !== undefined)
        members.push(`requestBody: ${this.translate(bodySchema, undefined, `${where}/requestBody`).code}`);
      const responses = [];
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

  webhooks() {
    const bodies = [];
    for (const { key: name, operation } of listOperations(this.doc, "webhooks")) {
      const schema = jsonMedia(this.doc, operation.requestBody)?.schema;
      if (schema === undefined) continue;
      bodies.push({ name, schema, result: this.translate(schema, undefined, `#/webhooks/${name}/requestBody`) });
    }
    return bodies;
  }

  generate() {
    for (const name of Object.keys(this.schemas)) this.ensure(name);
    const componentDeclarations = this.declarations.splice(0);
    const { operations, shared } = this.operations();
    const webhooks = this.webhooks();
    const inlineDeclarations = this.declarations.splice(0);
    if (inlineDeclarations.length > 0) throw new Error("internal: declarations emitted outside components");

    const out = [];
    out.push(
      "// Generated by scripts/generate-zod.mjs from the bundled openapi/openapi.yaml: do not edit by hand; run `pnpm generate`.",
      "// Validation only: defaults are not applied and unknown object members are kept.",
      "/* eslint-disable */",
      'import { z } from "zod";',
      "",
    );
    out.push(
      HELPERS.filter((h) => this.helpers.has(h.name))
        .map((h) => h.code)
        .join("\n\n"),
    );
    if (this.helpers.size > 0) out.push("");
    out.push(componentDeclarations.join("\n\n"), "");

    out.push(
      docComment("Every component schema's zod schema, by component name.") +
        `export const componentSchemas = ${list(
          [...this.aliases].map(([name, alias]) => `${key(name)}: ${zodName(alias)}`),
          "{",
          "}",
        )} as const;`,
      "",
    );

    const unionName = zodName(WEBHOOK_UNION);
    out.push(
      docComment("The body of each webhook the service sends, by webhook name.") +
        `export const webhookSchemas = ${list(
          webhooks.map((w) => `${key(w.name)}: ${w.result.code}`),
          "{",
          "}",
        )} as const;`,
      "",
    );
    if (webhooks.length > 0) {
      const found = findDiscriminator(
        this.doc,
        webhooks.map((w) => w.schema),
      );
      const codes = webhooks.map((w) => `webhookSchemas.${key(w.name)}`);
      const union =
        found && webhooks.every((w) => w.result.duOk)
          ? list([literal(found.name), list(codes, "[", "]")], "z.discriminatedUnion(", ")")
          : codes.length === 1
            ? codes[0]
            : `z.union(${list(codes, "[", "]")})`;
      out.push(
        docComment(
          `Any webhook event: the union of every webhook body${found ? `, told apart by \`${found.name}\` and then by each body's own discriminator` : ""}.`,
        ) + `export const ${unionName} = ${union};`,
        "",
      );
    }

    out.push(
      docComment("The schemas of the shared responses (components.responses) that have a JSON body.") +
        `export const responseSchemas = ${list(shared, "{", "}")} as const;`,
      "",
      docComment(
        "The request body schema and the response schemas (by status) of every operation, by operationId.\nResponses without a JSON body are left out.",
      ) + `export const operationSchemas = ${list(operations, "{", "}")} as const;`,
      "",
    );
    return out.join("\n");
  }
}

const HELPERS = [
  {
    name: "allOf",
    code: `/**
 * JSON Schema \`allOf\` of two schemas that do not merge into one: their intersection, also checked member by
 * member (a zod intersection tolerates a key one closed member rejects when the other member knows it).
 */
function allOf<A extends z.ZodType, B extends z.ZodType>(a: A, b: B) {
  return z.intersection(a, b).check(z.superRefine((value: unknown, ctx) => {
    for (const member of [a, b]) {
      const result = member.safeParse(value);
      if (!result.success) {
        for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path, input: value });
      }
    }
  }));
}`,
  },
  {
    name: "not",
    code: `/** JSON Schema \`not\`: the value must not match the schema. */
function not(schema: z.ZodType) {
  return z.superRefine((value: unknown, ctx) => {
    if (schema.safeParse(value).success) ctx.addIssue({ code: "custom", message: "Matches a schema it must not match (not)", input: value });
  });
}`,
  },
  {
    name: "conditional",
    code: `/** JSON Schema \`if\`/\`then\`/\`else\`. */
function conditional(ifSchema: z.ZodType, thenSchema: z.ZodType | undefined, elseSchema: z.ZodType | undefined) {
  return z.superRefine((value: unknown, ctx) => {
    const branch = ifSchema.safeParse(value).success ? thenSchema : elseSchema;
    const result = branch?.safeParse(value);
    if (result && !result.success) {
      for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path, input: value });
    }
  });
}`,
  },
  {
    name: "dependentRequired",
    code: `/** JSON Schema \`dependentRequired\`: a member that is present needs the members listed for it. */
function dependentRequired(dependencies: Record<string, readonly string[]>) {
  return z.superRefine((value: unknown, ctx) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return;
    for (const [member, needed] of Object.entries(dependencies)) {
      if (!Object.hasOwn(value, member)) continue;
      for (const other of needed) {
        if (!Object.hasOwn(value, other)) ctx.addIssue({ code: "custom", message: \`\${other} is required when \${member} is sent\`, path: [other], input: value });
      }
    }
  });
}`,
  },
  {
    name: "oneOf",
    code: `/** JSON Schema \`oneOf\` whose members may overlap: a union where exactly one member must match. */
function oneOf<const T extends readonly [z.ZodType, ...z.ZodType[]]>(options: T) {
  return z.union(options).check(z.superRefine((value: unknown, ctx) => {
    const matches = options.filter((option) => option.safeParse(value).success).length;
    if (matches !== 1) ctx.addIssue({ code: "custom", message: \`Expected exactly one oneOf member to match, \${matches} did\`, input: value });
  }));
}`,
  },
  {
    name: "propertyNames",
    code: `/** JSON Schema \`propertyNames\`. */
function propertyNames(schema: z.ZodType) {
  return z.superRefine((value: Record<string, unknown>, ctx) => {
    for (const name of Object.keys(value)) {
      if (!schema.safeParse(name).success) ctx.addIssue({ code: "custom", message: \`Invalid property name "\${name}"\`, path: [name], input: value });
    }
  });
}`,
  },
  {
    name: "propertyCount",
    code: `/** JSON Schema \`minProperties\`/\`maxProperties\`. */
function propertyCount(min: number, max: number) {
  return z.superRefine((value: Record<string, unknown>, ctx) => {
    const count = Object.keys(value).length;
    if (count < min || count > max) ctx.addIssue({ code: "custom", message: \`Expected \${min} to \${max} properties, got \${count}\`, input: value });
  });
}`,
  },
  {
    name: "uniqueItems",
    code: `/** JSON Schema \`uniqueItems\`. */
function uniqueItems() {
  const canonical = (value: unknown): string =>
    JSON.stringify(value, (_key, v: unknown) =>
      v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
    );
  return z.superRefine((value: readonly unknown[], ctx) => {
    if (new Set(value.map(canonical)).size !== value.length) ctx.addIssue({ code: "custom", message: "Array items must be unique", input: value });
  });
}`,
  },
];

/** The source of src/generated/zod.ts for a bundled spec. */
export function generateZod(spec) {
  return new ZodGenerator(spec).generate();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = join(packageDir, "src", "generated", "zod.ts");
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, generateZod(bundleSpec()));
  console.log(`wrote ${out}`);
}
