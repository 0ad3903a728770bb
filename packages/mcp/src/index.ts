// The whole public API of @exchange-kit/mcp.
export { createExchangeMcpServer } from "./server.js";
export type { ExchangeMcpOptions } from "./server.js";
export { serveStdio } from "./stdio.js";
export type { StdioOptions } from "./stdio.js";
export { serveHttp } from "./http.js";
export type { HttpHandle, HttpOptions } from "./http.js";
export { annotationsOf, missingFlag, toolKind } from "./safety.js";
export type { Allowances, OperationFacts, SafetyAnnotations, ToolKind } from "./safety.js";
