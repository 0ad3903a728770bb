/** This package's version, sent in the default User-Agent. test/version.test.ts keeps it equal to package.json. */
export const VERSION = "0.0.0";
