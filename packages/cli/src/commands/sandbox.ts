// exchange-kit sandbox: the stateful local exchange, until Ctrl-C.
import { createSandbox } from "@exchange-kit/sandbox";
import { readCredentials } from "../credentials.js";
import { UsageError } from "../output.js";
import type { Command } from "./command.js";

/** KEY:SECRET[:NAME] — the secret may not contain ":"; the name may. */
function parseOrganization(text: string): { apiKey: string; apiSecret: string; name?: string } {
  const [apiKey, apiSecret, ...name] = text.split(":");
  if (!apiKey || !apiSecret) throw new UsageError(`--org takes KEY:SECRET or KEY:SECRET:NAME, got "${text}"`);
  return name.length > 0 ? { apiKey, apiSecret, name: name.join(":") } : { apiKey, apiSecret };
}

export const sandbox: Command = {
  name: "sandbox",
  summary: "run the stateful local exchange (signed webhooks, state machines, control API)",
  usage: `exchange-kit sandbox [--port 4020] [--db ./sandbox.db] [--api-key K --api-secret S] [--json]
  credentials default to EXCHANGE_API_KEY / EXCHANGE_API_SECRET; without any, a pair is generated and printed
  --db FILE            keep state in a SQLite file across restarts (default: in memory); an answered write
                       survives kill -9; one sandbox per file (a second one on it refuses to start)
  --db-durability full also fsync every commit, to survive power loss (default normal: process crashes)
  --auto-progress MS   delay before KYC, banks and orders move on by themselves (default 200; "off" to drive them)
  --duplicate-deliveries  deliver every webhook event twice (test your deduplication)
  --org KEY:SECRET[:NAME]  another organization with its own credentials (repeatable)
  --verbose            log requests and deliveries`,
  options: {
    port: { type: "string" },
    host: { type: "string" },
    db: { type: "string" },
    "db-durability": { type: "string" },
    "api-key": { type: "string" },
    "api-secret": { type: "string" },
    "auto-progress": { type: "string" },
    "duplicate-deliveries": { type: "boolean" },
    org: { type: "string", multiple: true },
    verbose: { type: "boolean" },
  },
  async run({ values, out, env, signal, streams }) {
    const port = values.port === undefined ? 4020 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError("--port must be a port number");
    const progress = values["auto-progress"];
    const autoProgressMs = progress === undefined ? undefined : progress === "off" ? false : Number(progress);
    if (typeof autoProgressMs === "number" && !(autoProgressMs >= 0))
      throw new UsageError('--auto-progress must be milliseconds or "off"');
    const given = readCredentials(values, env);
    const others = ((values.org as unknown as string[] | undefined) ?? []).map(parseOrganization);
    const verbose = values.verbose === true;
    const durability = values["db-durability"];
    if (durability !== undefined && durability !== "normal" && durability !== "full")
      throw new UsageError('--db-durability must be "normal" or "full"');
    const write = (line: string) => streams.stderr.write(`${line}\n`);
    const box = await createSandbox({
      port,
      host: typeof values.host === "string" ? values.host : "127.0.0.1",
      ...(typeof values.db === "string" ? { db: values.db } : {}),
      ...(durability === undefined ? {} : { dbDurability: durability }),
      ...(given || others.length > 0
        ? { organizations: [...(given ? [{ name: "Default organization", ...given }] : []), ...others] }
        : {}),
      ...(autoProgressMs === undefined ? {} : { autoProgressMs }),
      duplicateDeliveries: values["duplicate-deliveries"] === true,
      ...(verbose ? { logger: { info: write, warn: write, error: write } } : {}),
    });
    const org = box.organizations[0]!;
    const generated = !given && others.length === 0;
    const keys = box.organizations.map((o) => o.apiKey);
    out.result(
      {
        ready: true,
        url: box.url,
        apiKey: org.apiKey,
        ...(generated ? { apiSecret: org.apiSecret } : {}),
        organizations: keys,
      },
      `${out.green("sandbox ready")} at ${out.bold(box.url)} (API key${keys.length > 1 ? "s" : ""} ${keys.join(", ")}${generated ? `, generated secret ${org.apiSecret}` : ""})`,
    );
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      signal.addEventListener("abort", () => resolve(), { once: true });
    });
    await box.close();
    out.line(out.dim("sandbox stopped"));
    return 0;
  },
};
