// The "./zod" entry: zod schemas generated from the spec (validation only; unknown members are kept).
// One `<Alias>Schema` per component schema, WebhookEventSchema, webhookSchemas, componentSchemas,
// responseSchemas and operationSchemas.
export * from "./generated/zod.js";
