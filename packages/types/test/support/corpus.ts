// The corpus that guards the zod compiler: for each component schema, the spec's examples and systematic
// mutations of them, each judged by an independent JSON Schema 2020-12 validator (Ajv's 2020 build with
// ajv-formats, as the sandbox validates). The mutations are made from the values, not from the generator's reading
// of the schema: every member dropped, every string emptied, re-cased, lengthened and replaced by a number, every
// number made negative, fractional, huge or a string, every array emptied or given a duplicate, an unknown member
// added to every object, and every example merged with every other example of the component (which doubles a
// oneOf branch, breaks a `not` or sets an `if` whose `then` the other example lacks).
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { JsonObject } from "./spec.js";
import { isObject } from "./spec.js";

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
// ajv-formats is CommonJS: under NodeNext the default import is module.exports, which also carries `.default`.
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  (addFormatsModule as unknown as FormatsPlugin);

const SPEC_ID = "exchange-spec";

/** A judge per component: true when the value is valid against the component's schema (2020-12, formats on). */
export function componentJudge(doc: JsonObject): (name: string, value: unknown) => boolean {
  // strict: false because OpenAPI adds keywords JSON Schema does not know (discriminator, example).
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  ajv.addSchema({ $id: SPEC_ID, components: doc.components });
  return (name, value) => {
    const validate = ajv.getSchema(`${SPEC_ID}#/components/schemas/${name}`);
    if (!validate) throw new Error(`no component ${name}`);
    return validate(value) as boolean;
  };
}

/** Replacements of one leaf value. */
function leafVariants(value: unknown): unknown[] {
  if (typeof value === "string")
    return ["", value.toLowerCase(), `${value.toUpperCase()}_X`, value.repeat(40).slice(0, 300) || "x".repeat(300), 7];
  if (typeof value === "number") return [-value - 1, value + 0.5, 1e21, String(value)];
  if (typeof value === "boolean") return [!value, String(value)];
  if (value === null) return ["null", 0];
  return [];
}

/** `value` with the node at `path` replaced by `replacement` (or removed, for `undefined` in an object). */
function replaceAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[head as number] = replaceAt(copy[head as number], rest, replacement);
    return copy;
  }
  const object = value as Record<string, unknown>;
  if (rest.length === 0 && replacement === undefined) {
    const { [head as string]: _dropped, ...others } = object;
    return others;
  }
  return { ...object, [head as string]: replaceAt(object[head as string], rest, replacement) };
}

/** Every mutation of a value, at every depth. */
export function mutationsOf(
  value: unknown,
  path: (string | number)[] = [],
  out: unknown[] = [],
  root = value,
): unknown[] {
  for (const variant of leafVariants(value)) out.push(replaceAt(root, path, variant));
  if (Array.isArray(value)) {
    out.push(replaceAt(root, path, []));
    if (value.length > 0) out.push(replaceAt(root, path, [...value, value[0]]));
    for (const [i, item] of value.entries()) mutationsOf(item, [...path, i], out, root);
  } else if (isObject(value)) {
    out.push(replaceAt(root, path, { ...value, zz_unknown_member: 1 }));
    out.push(replaceAt(root, path, "an object"));
    for (const [key, inner] of Object.entries(value)) {
      out.push(replaceAt(root, [...path, key], undefined));
      mutationsOf(inner, [...path, key], out, root);
    }
  }
  return out;
}

/** Each pair of examples merged (the second's members over the first's), where both are objects. */
export function mergesOf(examples: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const a of examples)
    for (const b of examples) if (a !== b && isObject(a) && isObject(b)) out.push({ ...a, ...b });
  return out;
}

/** The corpus of a component: its examples, their mutations and their merges, without repeats. */
export function corpusOf(examples: unknown[]): unknown[] {
  const all = [...examples, ...examples.flatMap((e) => mutationsOf(e)), ...mergesOf(examples)];
  const seen = new Set<string>();
  return all.filter((value) => {
    const key = JSON.stringify(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
