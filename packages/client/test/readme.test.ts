// The README's code blocks are the documentation users copy: every ```ts block is written out as a file,
// type-checked as a user's code (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess; NodeNext and bundler
// resolution, against the built package through its exports), and the blocks marked `<!-- readme-test: run -->`
// run, in order, each twice in a row, against the real sandbox started in this process: a user runs an example
// again, and the second run must not trip over what the first one created.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "./support/sandbox.js";
import { packageRoot } from "./support/spec.js";
import { compile } from "./support/compile.js";

interface Block {
  readonly name: string;
  readonly code: string;
  readonly run: boolean;
}

/** The pages whose blocks are the client's documentation: its README, then the guide it sends the details to. */
const PAGES = [
  { file: join(packageRoot, "README.md"), prefix: "readme" },
  { file: join(packageRoot, "..", "..", "docs", "guides", "client-in-depth.md"), prefix: "guide" },
];

/** The ```ts blocks of one page, named by the page and their first line number. */
function pageBlocks(file: string, prefix: string): Block[] {
  const lines = readFileSync(file, "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "```ts") continue;
    const end = lines.indexOf("```", i + 1);
    const run = lines[i - 1] === "<!-- readme-test: run -->";
    blocks.push({
      name: `${prefix}-line-${String(i + 2).padStart(3, "0")}`,
      code: `${lines.slice(i + 1, end).join("\n")}\n`,
      run,
    });
    i = end;
  }
  return blocks;
}

/** The blocks of every page, in reading order. */
function readmeBlocks(): Block[] {
  return PAGES.flatMap((page) => pageBlocks(page.file, page.prefix));
}

const dir = join(packageRoot, ".readme-snippets");
const blocks = readmeBlocks();

function writeSnippets(): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const block of blocks) writeFileSync(join(dir, `${block.name}.ts`), block.code);
  for (const [name, module] of [
    ["nodenext", { module: "NodeNext", moduleResolution: "NodeNext" }],
    ["bundler", { module: "ESNext", moduleResolution: "bundler" }],
  ] as const) {
    const compilerOptions = {
      target: "ES2022",
      lib: ["ES2022", "DOM", "DOM.Iterable"],
      ...module,
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      types: ["node"],
    };
    writeFileSync(join(dir, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, include: ["*.ts"] }, null, 2));
  }
}

describe("the README's code", () => {
  beforeAll(writeSnippets);

  it("has self-contained blocks: each imports what it uses from @exchange-kit/client", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    for (const block of blocks) expect(block.code, block.name).toMatch(/^import .* from "@exchange-kit\/client";$/m);
  });

  it("verifies every webhook it receives: a block with a server uses webhook-verify and parses no body itself", () => {
    const receivers = blocks.filter((b) => b.code.includes("createServer("));
    expect(receivers.length).toBeGreaterThan(0);
    for (const block of receivers) {
      expect(block.code, block.name).toContain('from "@exchange-kit/webhook-verify/node"');
      expect(block.code, block.name).not.toContain("JSON.parse(");
    }
  });

  it("gives every order and customer a reference of its own per run", () => {
    for (const block of blocks.filter((b) => b.run && /initiate\(|kyc\.addData\(/.test(b.code))) {
      expect(block.code, block.name).not.toMatch(/client_reference_id: "/);
      expect(block.code, block.name).toContain("randomUUID()");
    }
  });

  it.each(["nodenext", "bundler"])(
    "type-checks every block with %s resolution",
    (resolution) => {
      expect(compile(join(dir, `tsconfig.${resolution}.json`))).toBe("");
    },
    120_000,
  );

  describe("against the sandbox", () => {
    let sandbox: Sandbox;
    const saved = { ...process.env };
    beforeAll(async () => {
      sandbox = await startSandbox();
      const org = sandbox.organizations[0]!;
      Object.assign(process.env, {
        EXCHANGE_BASE_URL: sandbox.url,
        EXCHANGE_API_KEY: org.apiKey,
        EXCHANGE_API_SECRET: org.apiSecret,
      });
    });
    afterAll(async () => {
      for (const key of ["EXCHANGE_BASE_URL", "EXCHANGE_API_KEY", "EXCHANGE_API_SECRET"]) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
      await sandbox?.close();
    });

    it("marks the complete, payin and payout examples to run", () => {
      const run = blocks.filter((b) => b.run).map((b) => b.code);
      expect(run.some((code) => code.includes("additional_info: additionalInfo"))).toBe(true);
      expect(run.some((code) => code.includes("client.payins.initiate") && code.includes('"PAYIN"'))).toBe(true);
      expect(run.some((code) => code.includes("client.payouts.initiate"))).toBe(true);
    });

    const runs = blocks.filter((b) => b.run).flatMap((b) => [[b.name, 1, b] as const, [b.name, 2, b] as const]);
    it.each(runs)(
      "runs the block at %s (run %i)",
      async (_, run, block) => {
        const logged: unknown[][] = [];
        const log = console.log;
        console.log = (...args: unknown[]) => void logged.push(args);
        try {
          // The query makes the second import a new module, so the block runs again.
          await import(`${pathToFileURL(join(dir, `${block.name}.ts`)).href}?run=${run}`);
        } finally {
          console.log = log;
        }
        expect(logged.length, "the block reports its outcome").toBeGreaterThan(0);
      },
      120_000,
    );
  });
});
