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
  const schemes = asArray(opts.securitySchemes, ["X-API-KEY", "X-TIMESTAMP", "X-SIGNATURE"]);
  const exemptWebhooks = opts.exemptWebhooksWithEmptySecurity !== false;
  let declaredTags = new Set();
  const reportOnce = reporter();
  let rootSecurity;

  function nonEmptyString(value) {
    return typeof value === "string" && value.trim().length > 0;
  }

  function check(operation, ctx, inWebhooks) {
    const { location } = ctx;
    const report = (problem) => reportOnce(ctx, problem);
    const where = inWebhooks ? "Webhook operation" : "Operation";

    if (!nonEmptyString(operation.operationId)) {
      report({
        message: `${where} must have a non-empty \`operationId\`.`,
        location: operation.operationId === undefined ? location.key() : location.child(["operationId"]),
      });
    }

    const tags = operation.tags;
    if (!Array.isArray(tags) || tags.length !== 1) {
      report({
        message: `${where} must have exactly one tag (has ${Array.isArray(tags) ? tags.length : 0}).`,
        location: tags === undefined ? location.key() : location.child(["tags"]),
      });
    } else if (!declaredTags.has(tags[0])) {
      report({
        message: `Tag \`${tags[0]}\` is not declared in the root \`tags\` list (${[...declaredTags].join(", ")}).`,
        location: location.child(["tags", 0]),
      });
    }

    if (!nonEmptyString(operation.summary)) {
      report({
        message: `${where} must have a non-empty \`summary\`.`,
        location: operation.summary === undefined ? location.key() : location.child(["summary"]),
      });
    }

    const own = operation.security;
    if (inWebhooks && exemptWebhooks && Array.isArray(own) && own.length === 0) return;
    const effective = own !== undefined ? own : rootSecurity;
    const inherited = own === undefined;
    const missing = [];
    if (!Array.isArray(effective) || effective.length === 0) {
      missing.push(...schemes);
    } else {
      for (const requirement of effective) {
        const names = requirement && typeof requirement === "object" ? Object.keys(requirement) : [];
        for (const scheme of schemes) if (!names.includes(scheme) && !missing.includes(scheme)) missing.push(scheme);
      }
    }
    if (missing.length > 0) {
      report({
        message:
          `${where} security${inherited ? " (inherited from the root)" : ""} must require ${schemes.join(", ")} ` +
          `together in every alternative; missing: ${missing.join(", ")}.`,
        location: inherited ? location.key() : location.child(["security"]),
      });
    }
  }

  return {
    Root: {
      enter(root) {
        declaredTags = new Set((Array.isArray(root.tags) ? root.tags : []).map((tag) => tag?.name).filter(Boolean));
        rootSecurity = root.security;
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
