#!/usr/bin/env node
import { runCli } from "./main.js";

const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => stop.abort());
}
process.exitCode = await runCli(process.argv.slice(2), { signal: stop.signal });
