import { asArray, envelopeOf, follow, jsonContent, reporter } from "./util.js";

const SUCCESS = /^2(\d\d|XX)$/i;
const ERROR = /^[45](\d\d|XX)$/i;

function envelopeRule({ statusPattern, defaultEnvelope, kind }) {
  return function EnvelopeRule(opts = {}) {
    const envelope = opts.envelope ?? defaultEnvelope;
    const alternatives = asArray(opts.alternatives, []);
    const names = [envelope, ...alternatives];
    const mediaType = opts.mediaType ?? "application/json";
    const expected = `\`$ref\` to ${names.join(" or ")}, or \`allOf\` whose first member is a \`$ref\` to ${names.join(" or ")}`;
    const report = reporter();

    return {
      // Only path operations: a webhook's responses are the receiver's, not the service's envelope.
      Paths: {
        Response: {
          enter(response, ctx) {
            const status = String(ctx.key);
            if (!statusPattern.test(status)) return;
            const json = jsonContent(response, mediaType);
            if (!json) {
              report(ctx, {
                message: `${kind} response ${status} must have \`${mediaType}\` content (${expected}).`,
                location: response.content === undefined ? ctx.location.key() : ctx.location.child(["content"]),
              });
              return;
            }
            if (json.media.schema === undefined) {
              report(ctx, {
                message: `${kind} response ${status} \`${mediaType}\` must have a schema (${expected}).`,
                location: ctx.location.child(["content", json.key]),
              });
              return;
            }
            const found = envelopeOf(ctx, json.media.schema, ctx.location.source.absoluteRef, names);
            if (!found.envelope) {
              report(ctx, {
                message: `${kind} response ${status} must be the ${envelope}: its schema must be ${expected}.`,
                location: ctx.location.child(["content", json.key, "schema"]),
              });
            }
          },
        },
      },
    };
  };
}

/**
 * exchange-kit/success-envelope — every 2xx response of a path operation is the success envelope.
 * Options: envelope (SuccessEnvelope), alternatives ([]), mediaType (application/json).
 */
export const SuccessEnvelope = envelopeRule({
  statusPattern: SUCCESS,
  defaultEnvelope: "SuccessEnvelope",
  kind: "Success",
});

/**
 * exchange-kit/error-envelope — every 4xx/5xx response of a path operation is the error envelope or one of
 * the configured alternatives. Options: envelope (ErrorEnvelope), alternatives ([]), mediaType.
 */
export const ErrorEnvelope = envelopeRule({
  statusPattern: ERROR,
  defaultEnvelope: "ErrorEnvelope",
  kind: "Error",
});

/**
 * exchange-kit/err-code-enum — the listed responses (default 400) of every path operation built on `envelope`
 * narrow `err_code` with an enum: `allOf: [<envelope>, {properties: {err_code: {enum: [...]}}}]`.
 * Bodies built on another envelope (an allowed alternative of error-envelope) are not checked.
 * Options: envelope (ErrorEnvelope), statuses (['400']), property (err_code), mediaType.
 */
export function ErrCodeEnum(opts = {}) {
  const envelope = opts.envelope ?? "ErrorEnvelope";
  const statuses = asArray(opts.statuses, ["400"]);
  const property = opts.property ?? "err_code";
  const mediaType = opts.mediaType ?? "application/json";
  const shape = `\`allOf: [${envelope}, {properties: {${property}: {enum: [...]}}}]\``;
  const report = reporter();

  return {
    Paths: {
      Response: {
        enter(response, ctx) {
          const status = String(ctx.key);
          if (!statuses.includes(status)) return;
          const json = jsonContent(response, mediaType);
          if (!json || json.media.schema === undefined) return; // error-envelope reports that
          const schemaLocation = ctx.location.child(["content", json.key, "schema"]);
          const found = envelopeOf(ctx, json.media.schema, ctx.location.source.absoluteRef, [envelope]);
          if (!found.envelope) return; // another envelope (allowed alternative) or not an envelope at all
          if (!found.allOf || found.allOf.length < 2) {
            report(ctx, {
              message: `Response ${status} must restrict \`${property}\` to the operation's codes: ${shape}.`,
              location: schemaLocation,
            });
            return;
          }
          const second = follow(ctx, found.allOf[1], found.from);
          const props = second.node && typeof second.node === "object" ? second.node.properties : undefined;
          const codeSchema =
            props && props[property] !== undefined ? follow(ctx, props[property], second.from).node : undefined;
          const values = codeSchema && typeof codeSchema === "object" ? codeSchema.enum : undefined;
          if (!Array.isArray(values) || values.length === 0) {
            report(ctx, {
              message:
                `Response ${status}: the second \`allOf\` member must list the operation's codes in ` +
                `\`properties.${property}.enum\` (${shape}).`,
              location: schemaLocation,
            });
          }
        },
      },
    },
  };
}
