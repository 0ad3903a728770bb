// The CommonJS story the READMEs state: require() of the ESM-only packages through Node's require(esm)
// (on by default from Node 20.19 and 22.12). Prints one JSON line; exits 1 if a package cannot be required.
const failures = [];
const loaded = {};
for (const [name, exported] of [
  ["@exchange-kit/signing", "signRequest"],
  ["@exchange-kit/client", "createExchangeClient"],
  ["@exchange-kit/webhook-verify", "verifyWebhook"],
  ["@exchange-kit/webhook-verify/node", "createNodeWebhookHandler"],
  ["@exchange-kit/types", "operationIndex"],
]) {
  try {
    const mod = require(name);
    if (mod[exported] === undefined) failures.push(`${name}: no ${exported}`);
    else loaded[name] = exported;
  } catch (error) {
    failures.push(`${name}: ${error.code ?? ""} ${error.message.split("\n")[0]}`);
  }
}
console.log(
  JSON.stringify({
    runtime: `node ${process.versions.node} require()`,
    checks: Object.keys(loaded).length + failures.length,
    failures,
  }),
);
process.exit(failures.length ? 1 : 0);
