// What TypeScript says about a request the service refuses: the message must name what to add. Each case is a
// user's line compiled with the package's own settings, and the diagnostic asserted.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "./support/compile.js";

const here = dirname(fileURLToPath(import.meta.url));
const dir = join(here, ".type-messages");

const CASES = {
  noName: `await client.customers.create({ client_reference_id: "c-1", alpha_3_country_code: "IND" });`,
  firstNameOnly: `await client.customers.create({ client_reference_id: "c-1", first_name: "Asha" });`,
  kycWithoutCustomer: `await client.kyc.addData({ full_name: "Asha Verma", document_front_image_url: "f", document_back_image_url: "b" });`,
};

let diagnostics: string[];
beforeAll(() => {
  mkdirSync(dir, { recursive: true });
  const lines = Object.values(CASES).map((line) => `  ${line}`);
  writeFileSync(
    join(dir, "snippet.ts"),
    `import { createExchangeClient } from "../../src/index.js";\nconst client = createExchangeClient();\nexport async function run(): Promise<void> {\n${lines.join("\n")}\n}\n`,
  );
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({ extends: "../../tsconfig.json", include: [], files: ["snippet.ts"] }),
  );
  // One diagnostic block per case, in line order (the snippet's lines 4, 5, 6).
  const output = compile(join(dir, "tsconfig.json"));
  diagnostics = Object.keys(CASES).map((_, i) => {
    const start = output.indexOf(`snippet.ts(${4 + i},`);
    const next = output.indexOf(`snippet.ts(${5 + i},`);
    return start < 0 ? "" : output.slice(start, next < 0 ? undefined : next);
  });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("TypeScript's message for a refused request", () => {
  it("names full_name when customers.create is given no name", () => {
    expect(diagnostics[0]).toMatch(/error TS2345: .*\n\s+Property 'full_name' is missing in type /);
  });

  it("names full_name, the document's rule, when customers.create is given first_name alone", () => {
    expect(diagnostics[1]).toMatch(/Property 'full_name' is missing in type /);
  });

  it("names customer_id when kyc.addData is given none", () => {
    expect(diagnostics[2]).toMatch(/Property 'customer_id' is missing in type /);
  });
});
