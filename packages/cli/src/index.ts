// The CLI as a library: run it with your own streams, environment and stop signal (tests, wrappers).
export { commands, runCli } from "./main.js";
export type { RunOptions } from "./main.js";
export type { Command, CommandContext } from "./commands/command.js";
