// The "./node" entry: the Node.js (req, res) adapter for node:http and Express.
export { createNodeWebhookHandler } from "./node-handler.js";
export type { NodeWebhookHandler } from "./node-handler.js";
export type { WebhookEventHandler, WebhookHandlerOptions } from "./delivery.js";
