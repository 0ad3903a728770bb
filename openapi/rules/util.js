// Helpers shared by the exchange-kit lint rules. They only use what the Redocly walker hands a rule
// (`ctx.resolve`, `ctx.location`), so $refs across the split spec's files resolve the way the linter sees them.

/** The name a `$ref` points at: the last JSON-pointer token, or the file name without its extension. */
export function refName(ref) {
  if (typeof ref !== "string") return undefined;
  const hash = ref.indexOf("#");
  const pointer = hash >= 0 ? ref.slice(hash + 1) : "";
  if (pointer && pointer !== "/") {
    const last = pointer.split("/").filter(Boolean).pop();
    return last === undefined ? undefined : last.replace(/~1/g, "/").replace(/~0/g, "~");
  }
  const file = (hash >= 0 ? ref.slice(0, hash) : ref).split(/[\\/]/).pop() ?? "";
  return file.replace(/\.(ya?ml|json)$/i, "");
}

export function isRef(node) {
  return node !== null && typeof node === "object" && typeof node.$ref === "string";
}

/**
 * Follows a chain of $refs from `node` (raw, as written in the file whose absolute ref is `from`).
 * Returns the final node, the source it lives in, and the names of every hop (so a ref to
 * `#/components/schemas/SuccessEnvelope` that itself refs `SuccessEnvelope.yaml` yields both names).
 */
export function follow(ctx, node, from) {
  const names = [];
  let current = node;
  let source = from;
  for (let hops = 0; isRef(current) && hops < 32; hops++) {
    names.push(refName(current.$ref));
    const resolved = ctx.resolve(current, source);
    if (!resolved || resolved.node === undefined || !resolved.location) {
      return { node: undefined, from: source, names, unresolved: true };
    }
    current = resolved.node;
    source = resolved.location.source.absoluteRef;
  }
  return { node: current, from: source, names, unresolved: false };
}

/** True when `node` is a $ref (possibly through a chain) to one of `envelopeNames`; returns the matched name. */
export function refersTo(ctx, node, from, envelopeNames) {
  if (!isRef(node)) return undefined;
  const { names } = follow(ctx, node, from);
  return names.find((name) => envelopeNames.includes(name));
}

/**
 * Which envelope a response body schema is built on: the schema is a $ref to it, or an `allOf` whose first
 * member is a $ref to it. Returns `{ envelope, schema, allOf }` where `envelope` is the matched name or undefined.
 */
export function envelopeOf(ctx, schema, from, envelopeNames) {
  const direct = refersTo(ctx, schema, from, envelopeNames);
  if (direct) return { envelope: direct, allOf: undefined, from };
  // The schema itself may be a $ref to a named composite (e.g. a component that is `allOf: [SuccessEnvelope, …]`).
  const { node, from: src } = follow(ctx, schema, from);
  if (node && typeof node === "object" && Array.isArray(node.allOf) && node.allOf.length > 0) {
    const first = refersTo(ctx, node.allOf[0], src, envelopeNames);
    return { envelope: first, allOf: node.allOf, from: src };
  }
  return { envelope: undefined, allOf: undefined, from: src };
}

/** The JSON media type of a response, with its key (`application/json` or a `+json` variant when configured). */
export function jsonContent(response, mediaType) {
  const content = response && typeof response === "object" ? response.content : undefined;
  if (!content || typeof content !== "object") return undefined;
  if (content[mediaType]) return { key: mediaType, media: content[mediaType] };
  return undefined;
}

export function asArray(value, fallback) {
  if (value === undefined || value === null) return fallback;
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

/**
 * A `report` that drops repeats. A node in a shared file (a response or schema referenced from many operations)
 * is visited once per reference; its problem is reported once, at its own location.
 */
export function reporter() {
  const seen = new Set();
  return (ctx, problem) => {
    const at = problem.location ?? ctx.location;
    const key = `${at.source?.absoluteRef}|${at.pointer}|${at.reportOnKey ? "key" : "value"}|${problem.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    ctx.report(problem);
  };
}
