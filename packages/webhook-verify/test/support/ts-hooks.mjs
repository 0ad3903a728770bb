// Lets a plain `node` child process run this package's TypeScript sources as the tests do: imports written
// with a .js extension (as tsc wants them) resolve to the .ts file beside them. Node strips the types
// (--experimental-transform-types, for the parameter properties of @exchange-kit/signing).
import { registerHooks } from "node:module";

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (error?.code !== "ERR_MODULE_NOT_FOUND" || !/^\.{1,2}\/.*\.js$/.test(specifier)) throw error;
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    }
  },
});
