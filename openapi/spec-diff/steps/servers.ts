// Clients are configured with their base URL; the documented servers are information, never breaking.
import type { DocumentStep } from "./step.ts";

export const serversStep: DocumentStep = (ctx) => {
  if (JSON.stringify(ctx.oldDoc.servers ?? []) === JSON.stringify(ctx.newDoc.servers ?? [])) return;
  ctx.add({ rule: "servers-changed", breaking: false, where: "servers", message: "the documented servers changed" });
};
