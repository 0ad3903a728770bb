// The sandbox under benchmark, in its own process (the load generator gets the other core).
import { createSandbox } from "../dist/index.js";

const sandbox = await createSandbox({
  port: 0,
  organizations: [{ name: "Bench", apiKey: process.env.BENCH_KEY, apiSecret: process.env.BENCH_SECRET }],
});
process.send?.({ url: sandbox.url });
process.on("message", async (message) => {
  if (message === "close") {
    await sandbox.close();
    process.exit(0);
  }
});
