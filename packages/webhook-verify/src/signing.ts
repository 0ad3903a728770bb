// The one module that imports @exchange-kit/signing: bundlers keep an import
// statement per importing module when the package is external, so verify.ts
// and sign-test.ts share this one.
export { canonicalize, canonicalizeText, computeSignature, parseJson } from "@exchange-kit/signing";
