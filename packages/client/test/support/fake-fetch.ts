// An in-process stand-in for the service: a fetch function whose answers come from a handler.
import { createHmac } from "node:crypto";
import { createExchangeClient, type ExchangeClientOptions } from "../../src/index.js";

export const API_KEY = "test-key-AKIA1234567890";
export const API_SECRET = "test-secret-s3cr3t-0987654321";
export const BASE_URL = "https://exchange.test";

export interface Recorded {
  readonly url: URL;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
  readonly signal: AbortSignal | undefined;
}

export type Handler = (request: Recorded, index: number) => Response | Promise<Response>;

/** A fetch that records every request and answers with `handler`. */
export function fakeFetch(handler: Handler): { fetch: typeof fetch; calls: Recorded[] } {
  const calls: Recorded[] = [];
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : undefined;
    const headers: Record<string, string> = {};
    new Headers(init?.headers ?? request?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    const body =
      init?.body !== undefined && init.body !== null
        ? String(init.body)
        : request?.body
          ? await request.text()
          : undefined;
    const recorded: Recorded = {
      url: new URL(request?.url ?? String(input)),
      method: (init?.method ?? request?.method ?? "GET").toUpperCase(),
      headers,
      body,
      signal: init?.signal ?? request?.signal ?? undefined,
    };
    calls.push(recorded);
    return handler(recorded, calls.length - 1);
  };
  return { fetch: fetchFn as typeof fetch, calls };
}

/** A success envelope. */
export function ok(data: unknown, init: ResponseInit = {}): Response {
  return json({ status: true, message: "Success", data }, { status: 200, ...init });
}

/** An error envelope. */
export function apiError(
  status: number,
  errCode: string | undefined,
  errors: unknown = {},
  message = "Error",
  headers: Record<string, string> = {},
): Response {
  const body: Record<string, unknown> = { status: false, message, data: null, errors };
  if (errCode !== undefined) body.err_code = errCode;
  return json(body, { status, headers });
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    ...init,
    headers: { "Content-Type": "application/json", ...(init.headers as Record<string, string> | undefined) },
  });
}

/** Never answers; rejects when the request is aborted, like fetch does. */
export function hang(request: Recorded): Promise<Response> {
  return new Promise((_, reject) => {
    const signal = request.signal;
    if (signal === undefined) return;
    const abort = () => reject(signal.reason ?? new DOMException("aborted", "AbortError"));
    if (signal.aborted) abort();
    signal.addEventListener("abort", abort, { once: true });
  });
}

/** A client on the fake fetch, with 1 ms backoff so retries are instant. */
export function testClient(handler: Handler, options: ExchangeClientOptions = {}) {
  const fake = fakeFetch(handler);
  const client = createExchangeClient({
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    fetch: fake.fetch,
    retryBaseMs: 1,
    ...options,
  });
  return { client, calls: fake.calls };
}

/** The signature the service would compute for a request. */
export function expectedSignature(timestamp: string, canonicalBody: string): string {
  return createHmac("sha256", API_SECRET).update(`${API_KEY}|${timestamp}|${canonicalBody}`).digest("base64");
}

export const CUSTOMER_ID = "3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f";
export const BANK_ID = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";

/** Fake timers that leave setImmediate real, so `until` can let real async work (Web Crypto) finish. */
export const FAKE_TIMERS: { toFake: ("setTimeout" | "clearTimeout" | "Date")[] } = {
  toFake: ["setTimeout", "clearTimeout", "Date"],
};

/** Lets real asynchronous work run until `condition` holds (or fails after many turns of the event loop). */
export async function until(condition: () => boolean, turns = 5000): Promise<void> {
  for (let i = 0; i < turns && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
  if (!condition()) throw new Error("condition not reached");
}

/** Advances fake time step by step, letting real async work settle after each step. */
export async function advance(ms: number, step = 100): Promise<void> {
  const { vi } = await import("vitest");
  for (let done = 0; done < ms; done += step) {
    await vi.advanceTimersByTimeAsync(Math.min(step, ms - done));
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The error a call rejected with; fails the test when the call succeeds instead. */
export async function failure(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}
