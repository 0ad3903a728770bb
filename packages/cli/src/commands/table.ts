// Every command by name, with its one-line summary and its module, imported only when the command is asked for:
// `exchange-kit --help` loads none, `exchange-kit sign` loads sign's. So no command pays for another's imports,
// and the sandbox (node:sqlite, Node 22.13+) is loaded by no command but the ones that run it.
import type { Command } from "./command.js";

export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "sandbox",
    summary: "run the stateful local exchange (signed webhooks, state machines, control API)",
    load: async () => (await import("./sandbox.js")).sandbox,
  },
  {
    name: "mock",
    summary: "serve the published spec with the Prism mock (shapes and required headers validated; needs Prism)",
    load: async () => (await import("./mock.js")).mock,
  },
  {
    name: "proxy",
    summary: "forward to the real service byte for byte and check requests and answers against the spec",
    load: async () => (await import("./proxy.js")).proxy,
  },
  {
    name: "sign",
    summary: "print the signed headers and the exact body of a request (for curl)",
    load: async () => (await import("./sign.js")).sign,
  },
  {
    name: "verify",
    summary: "check a saved webhook delivery: signature, timestamp, event",
    load: async () => (await import("./verify.js")).verify,
  },
  {
    name: "listen",
    summary: "receive the sandbox's webhooks and forward them to a local URL",
    load: async () => (await import("./listen.js")).listen,
  },
  {
    name: "trigger",
    summary: "move a sandbox record to a state, emitting its webhook event",
    load: async () => (await import("./trigger.js")).trigger,
  },
  {
    name: "fault",
    summary: "arm, list and clear sandbox faults (failed, slow, dropped answers; webhook faults)",
    load: async () => (await import("./fault.js")).fault,
  },
  {
    name: "org",
    summary: "add and list the organizations of a running sandbox (its admin API, --admin-token)",
    load: async () => (await import("./org.js")).org,
  },
  {
    name: "logs",
    summary: "print the sandbox's request log (--events: webhook events and delivery attempts); --follow streams",
    load: async () => (await import("./logs.js")).logs,
  },
  {
    name: "docs",
    summary: "serve the API reference and the guides on 127.0.0.1, offline, from the installed spec package",
    load: async () => (await import("./docs.js")).docs,
  },
  {
    name: "mcp",
    summary: "serve the API, the sandbox controls and the reference to a coding agent over MCP (stdio or --http)",
    load: async () => (await import("./mcp.js")).mcp,
  },
  {
    name: "demo",
    summary: "run the whole integration against an embedded sandbox and print a trace",
    load: async () => (await import("./demo.js")).demo,
  },
];
