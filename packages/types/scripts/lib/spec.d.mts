// Types of spec.mjs, for the tests.
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: any };

export declare const packageDir: string;
export declare function bundleSpec(): JsonObject;
export declare function schemaRefName(ref: unknown): string | undefined;
export declare function deref(doc: JsonObject, node: any): any;
export declare function listOperations(
  doc: JsonObject,
  section?: "paths" | "webhooks",
): { key: string; method: string; operation: JsonObject; pathItem: JsonObject }[];
