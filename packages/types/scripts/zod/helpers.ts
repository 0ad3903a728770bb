// The runtime helpers the zod module declares for the keywords zod has no method for (allOf that does not merge,
// not, if/then/else, dependentRequired, overlapping oneOf, propertyNames, min/maxProperties, uniqueItems), and
// RFC 3339's date-time, whose "T" and "Z" zod reads in upper case only. The
// module declares only the helpers its schemas call, in this order.

export type HelperName =
  | "allOf"
  | "not"
  | "conditional"
  | "dependentRequired"
  | "oneOf"
  | "propertyNames"
  | "propertyCount"
  | "uniqueItems"
  | "dateTime";

interface Helper {
  name: HelperName;
  /** The helper's declaration in the emitted module. */
  code: string;
}

export const HELPERS: readonly Helper[] = [
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
  {
    name: "dateTime",
    code: `/**
 * RFC 3339 \`date-time\` (JSON Schema's \`format\`): zod's ISO check with an offset, where "T" and "Z" may also be
 * lower case (RFC 3339, section 5.6); the value is kept as sent.
 */
const isoDateTime = z.iso.datetime({ offset: true });
function dateTime() {
  return z.string().check(z.refine((value: string) => isoDateTime.safeParse(value.toUpperCase()).success, { message: "Invalid RFC 3339 date-time" }));
}`,
  },
];

/** The declarations of the helpers used, in HELPERS order, separated by blank lines. */
export function helperDeclarations(used: ReadonlySet<HelperName>): string {
  return HELPERS.filter((h) => used.has(h.name))
    .map((h) => h.code)
    .join("\n\n");
}
