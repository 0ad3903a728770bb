// Types of method-names.mjs, for the TypeScript code-sample generator of the spec package, which names the same
// methods the client's generator writes.
export declare const TAG_GROUPS: Readonly<Record<string, string>>;
export declare const GROUP_NOUNS: Readonly<Record<string, readonly string[]>>;
export declare function groupOfTag(tag: string): string;
export declare function methodNameOf(operationId: string, group: string): string;
