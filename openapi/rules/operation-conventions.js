import { asArray, reporter } from "./util.js";

/**
 * exchange-kit/operation-conventions
 *
 * Every operation (paths and webhooks) has an operationId, exactly one tag that the root `tags` list
 * declares, a summary, and — directly or inherited from the root — security requiring every scheme in
 * `securitySchemes` together in each alternative. A webhook operation that declares `security: []` is exempt
 * from the security part (the receiver verifies the signature itself) while `exemptWebhooksWithEmptySecurity`
 * is true.
 *
 * Options:
 *   securitySchemes: [X-API-KEY, X-TIMESTAMP, X-SIGNATURE]
 *   exemptWebhooksWithEmptySecurity: true
 */
export function OperationConventions(opts = {}) {
  const reportOnce = reporter();
  const conventions = {
    schemes: asArray(opts.securitySchemes, ["X-API-KEY", "X-TIMESTAMP", "X-SIGNATURE"]),
    exemptWebhooks: opts.exemptWebhooksWithEmptySecurity !== false,
    declaredTags: new Set(),
    rootSecurity: undefined,
  };
  const check = (operation, ctx, inWebhooks) => {
    for (const problem of operationProblems(operation, ctx.location, inWebhooks, conventions)) reportOnce(ctx, problem);
  };
  return {
    Root: {
      enter(root) {
        const tags = Array.isArray(root.tags) ? root.tags : [];
        conventions.declaredTags = new Set(tags.map((tag) => tag?.name).filter(Boolean));
        conventions.rootSecurity = root.security;
      },
    },
    Paths: {
      Operation: {
        enter(operation, ctx) {
          check(operation, ctx, false);
        },
      },
    },
    WebhooksMap: {
      Operation: {
        enter(operation, ctx) {
          check(operation, ctx, true);
        },
      },
    },
  };
}

function nonEmptyString(value) {
  return typeof value === "string" && value.trim().length > 0;
}

/** The operation's problems, in the order they are reported: operationId, tag, summary, security. */
function operationProblems(operation, location, inWebhooks, conventions) {
  const where = inWebhooks ? "Webhook operation" : "Operation";
  return [
    idProblem(operation, location, where),
    tagProblem(operation, location, where, conventions.declaredTags),
    summaryProblem(operation, location, where),
    securityProblem(operation, location, inWebhooks, conventions),
  ].filter(Boolean);
}

function idProblem(operation, location, where) {
  if (nonEmptyString(operation.operationId)) return undefined;
  return {
    message: `${where} must have a non-empty \`operationId\`.`,
    location: operation.operationId === undefined ? location.key() : location.child(["operationId"]),
  };
}

function tagProblem(operation, location, where, declaredTags) {
  const tags = operation.tags;
  if (!Array.isArray(tags) || tags.length !== 1) {
    return {
      message: `${where} must have exactly one tag (has ${Array.isArray(tags) ? tags.length : 0}).`,
      location: tags === undefined ? location.key() : location.child(["tags"]),
    };
  }
  if (declaredTags.has(tags[0])) return undefined;
  return {
    message: `Tag \`${tags[0]}\` is not declared in the root \`tags\` list (${[...declaredTags].join(", ")}).`,
    location: location.child(["tags", 0]),
  };
}

function summaryProblem(operation, location, where) {
  if (nonEmptyString(operation.summary)) return undefined;
  return {
    message: `${where} must have a non-empty \`summary\`.`,
    location: operation.summary === undefined ? location.key() : location.child(["summary"]),
  };
}

/**
 * The schemes missing from some alternative of a security requirement list (every scheme when there is no
 * alternative), in the order of `schemes`' first miss.
 *
 * @example
 * missingSchemes([{ "X-API-KEY": [] }], ["X-API-KEY", "X-SIGNATURE"]); // ["X-SIGNATURE"]
 */
export function missingSchemes(security, schemes) {
  if (!Array.isArray(security) || security.length === 0) return [...schemes];
  const missing = [];
  for (const requirement of security) {
    const names = requirement && typeof requirement === "object" ? Object.keys(requirement) : [];
    for (const scheme of schemes) if (!names.includes(scheme) && !missing.includes(scheme)) missing.push(scheme);
  }
  return missing;
}

/** The operation's own security, else the root's, must require every scheme together; exempt webhooks aside. */
function securityProblem(operation, location, inWebhooks, { schemes, exemptWebhooks, rootSecurity }) {
  const own = operation.security;
  if (inWebhooks && exemptWebhooks && Array.isArray(own) && own.length === 0) return undefined;
  const inherited = own === undefined;
  const missing = missingSchemes(inherited ? rootSecurity : own, schemes);
  if (missing.length === 0) return undefined;
  const where = inWebhooks ? "Webhook operation" : "Operation";
  return {
    message:
      `${where} security${inherited ? " (inherited from the root)" : ""} must require ${schemes.join(", ")} ` +
      `together in every alternative; missing: ${missing.join(", ")}.`,
    location: inherited ? location.key() : location.child(["security"]),
  };
}
