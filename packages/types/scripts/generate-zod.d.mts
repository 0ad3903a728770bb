// Types of generate-zod.mjs, for the tests.
export declare function generateZod(spec: { [key: string]: any }): string;
