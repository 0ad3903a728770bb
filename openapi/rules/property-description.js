import { asArray, follow, isRef, reporter } from "./util.js";

// Pointer segments after which a key is a name chosen by the author, not a keyword.
const NAME_CONTAINERS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "schemas",
  "examples",
]);

function described(node) {
  return (
    node !== null &&
    typeof node === "object" &&
    typeof node.description === "string" &&
    node.description.trim().length > 0
  );
}

/** True when the JSON pointer passes through one of the keywords in `keywords` (e.g. inside an `if`). */
function underKeyword(pointer, keywords) {
  if (keywords.length === 0 || typeof pointer !== "string") return false;
  const segments = pointer.replace(/^#/, "").split("/");
  for (let i = 1; i < segments.length; i++) {
    if (keywords.includes(segments[i]) && !NAME_CONTAINERS.has(segments[i - 1])) return true;
  }
  return false;
}

/**
 * exchange-kit/property-description — every schema property has a non-empty description. A property that is
 * only a `$ref` counts as described when the referenced schema has one. Properties of predicate subschemas
 * (`if`, `not` by default: they test a value, they don't declare a field) are skipped.
 * Options: ignoreUnder ([if, not]).
 */
export function PropertyDescription(opts = {}) {
  const ignoreUnder = asArray(opts.ignoreUnder, ["if", "not"]);
  const report = reporter();
  return {
    Schema: {
      enter(schema, ctx) {
        const properties = schema.properties;
        if (!properties || typeof properties !== "object" || Array.isArray(properties)) return;
        if (underKeyword(ctx.location.pointer, ignoreUnder)) return;
        for (const [name, property] of Object.entries(properties)) {
          if (described(property)) continue;
          if (isRef(property)) {
            const target = follow(ctx, property, ctx.location.source.absoluteRef);
            if (target.unresolved || described(target.node)) continue; // unresolved: no-unresolved-refs reports it
            report(ctx, {
              message: `Property \`${name}\` has no description, and the schema its $ref points to has none either.`,
              location: ctx.location.child(["properties", name]).key(),
            });
            continue;
          }
          report(ctx, {
            message: `Property \`${name}\` must have a description.`,
            location: ctx.location.child(["properties", name]).key(),
          });
        }
      },
    },
  };
}
