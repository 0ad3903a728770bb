// Helpers of the fault tests: a raw request that reports how the connection ended (an answer, or none), and
// arming faults through the control API.
import { request } from "node:http";
import { type Api, canonical, sign } from "../helpers.js";

/** How a request ended: its answer, or the error of a connection closed without one. */
export type Ending = { answered: true; status: number; text: string } | { answered: false; code: string | undefined };

/** A signed request over node:http that resolves either way, so a test can assert that no answer came. */
export function attempt(api: Api, method: string, path: string, body?: unknown): Promise<Ending> {
  const raw = body === undefined ? undefined : canonical(body);
  const timestamp = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    "X-API-KEY": api.org.apiKey,
    "X-TIMESTAMP": String(timestamp),
    "X-SIGNATURE": sign(api.org, timestamp, raw ?? "{}"),
    ...(raw === undefined ? {} : { "Content-Type": "application/json" }),
  };
  return new Promise((resolve) => {
    const req = request(`${api.sandbox.url}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ answered: true, status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", (error: NodeJS.ErrnoException) => resolve({ answered: false, code: error.code }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ answered: false, code: error.code }));
    req.end(raw);
  });
}

/** Arms a fault for the Api's organization and returns the armed rule. */
export async function arm(api: Api, fault: Record<string, unknown>): Promise<any> {
  return api.ok("POST", "/_sandbox/faults", fault);
}

export const customerBody = (reference: string) => ({
  client_reference_id: reference,
  full_name: "Asha Verma",
  alpha_3_country_code: "IND",
});
