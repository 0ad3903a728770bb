// The CLI as a library: run it with your own streams, environment and stop signal (tests, wrappers).
export { runCli } from "./main.js";
export type { RunOptions } from "./main.js";
