// The chaos soak: our client against the sandbox in chaos mode (`--chaos 0.2`), SOAK_OPERATIONS mixed
// operations (onboard, quote, initiate, poll; default 2000) with a real webhook receiver, then a naive bare-fetch
// integration with the same seed. Prints the figures: requests, faults fired by kind, duplicates, time.
//   pnpm --filter @exchange-kit/sandbox build && node bench/chaos-soak.mjs
//   SOAK_OPERATIONS=2000 SOAK_RATE=0.2 SOAK_SEED=42 SOAK_WORKERS=8 node bench/chaos-soak.mjs
import { createSandbox } from "../dist/sandbox.js";
import { runClientSoak } from "./soak/client-run.mjs";
import { runNaiveSoak } from "./soak/naive-run.mjs";

const operations = Number(process.env.SOAK_OPERATIONS ?? 2000);
const chaos = {
  rate: Number(process.env.SOAK_RATE ?? 0.2),
  seed: Number(process.env.SOAK_SEED ?? 42),
  maxDelayMs: 200,
};
const workers = Number(process.env.SOAK_WORKERS ?? 8);

const ours = await runClientSoak(createSandbox, { operations, chaos, workers });
console.log("our client:", JSON.stringify(ours, null, 2));
const naive = await runNaiveSoak(createSandbox, { operations, chaos, workers });
console.log("naive bare fetch:", JSON.stringify(naive, null, 2));
const ok =
  ours.duplicates === 0 &&
  ours.lost === 0 &&
  ours.unresolved === 0 &&
  ours.webhooks.missed === 0 &&
  ours.webhooks.handledTwice === 0;
console.log(ok ? "our client: no duplicate, no lost order, every webhook handled once" : "our client: FAILED");
process.exitCode = ok ? 0 : 1;
