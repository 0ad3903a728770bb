// The "./zod" entry: opt-in full validation with the spec's zod schemas. Only
// this entry loads zod (through @exchange-kit/types/zod); the core never does.
export { verifyWebhookWithZod, zodValidator } from "./zod-validator.js";
