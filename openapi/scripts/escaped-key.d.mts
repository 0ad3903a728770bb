export declare const ESCAPED_KEY: RegExp;
