// exchange-kit sign: the headers (and the exact body) for one request, for curl users.
import { readFile } from "node:fs/promises";
import { signRequest } from "@exchange-kit/signing";
import { requireCredentials } from "../credentials.js";
import { UsageError } from "../output.js";
import type { Command } from "./command.js";

export const sign: Command = {
  name: "sign",
  summary: "print the signed headers and the exact body of a request (for curl)",
  usage: `exchange-kit sign [--body JSON | --body-file FILE] [--timestamp SECONDS] [--url URL --method POST]
  --api-key K --api-secret S   credentials (default: EXCHANGE_API_KEY, EXCHANGE_API_SECRET)
  no body: a GET/DELETE signature over "{}"; --url prints a ready curl command`,
  options: {
    body: { type: "string" },
    "body-file": { type: "string" },
    timestamp: { type: "string" },
    url: { type: "string" },
    method: { type: "string" },
    "api-key": { type: "string" },
    "api-secret": { type: "string" },
  },
  async run({ values, out, env }) {
    const credentials = requireCredentials(values, env);
    if (values.body !== undefined && values["body-file"] !== undefined) throw new UsageError("pass --body or --body-file, not both");
    const text = values["body-file"] !== undefined ? await readFile(String(values["body-file"]), "utf8") : (values.body as string | undefined);
    let body: object | undefined;
    if (text !== undefined) {
      try {
        body = JSON.parse(text) as object;
      } catch (error) {
        throw new UsageError(`the body is not JSON: ${(error as Error).message}`);
      }
      if (body === null || typeof body !== "object") throw new UsageError("the body must be a JSON object or array");
    }
    const timestamp = values.timestamp === undefined ? undefined : String(values.timestamp);
    const signed = await signRequest({ ...credentials, body, timestamp });
    const method = String(values.method ?? (body === undefined ? "GET" : "POST")).toUpperCase();
    const headers = signed.headers as Record<string, string>;
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
    if (signed.body !== undefined) lines.push("", signed.body);
    if (values.url !== undefined) {
      const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
      const parts = [`curl -X ${method} ${quote(String(values.url))}`, ...Object.entries(headers).map(([n, v]) => `-H ${quote(`${n}: ${v}`)}`)];
      if (signed.body !== undefined) parts.push(`--data-raw ${quote(signed.body)}`);
      lines.push("", parts.join(" \\\n  "));
    }
    out.result({ method, headers, body: signed.body ?? null }, lines.join("\n"));
    return 0;
  },
};
