// Chaos mode: a fault on a given share of requests (and of webhook events), picked by a seeded generator so a
// run can be replayed: the same seed, and the same sequence of requests, gives the same faults. Requests and
// events draw from two streams, so how many events a run emits never shifts which requests fail.
import { type FaultKind, isRequestFault, isWebhookFault, REQUEST_FAULTS, WEBHOOK_FAULTS } from "./fault-kinds.js";
import type { AppliedFault, AppliedWebhookFault } from "./fault-records.js";
import { MAX_DELAY_MS } from "./fault-request.js";
import { mulberry32 } from "./prng.js";

/**
 * Chaos mode's options (`SandboxOptions.chaos`).
 *
 * @example
 * const options: ChaosOptions = { rate: 0.05, seed: 42, faults: ["HTTP_503", "DROP_AFTER_COMMIT"] };
 */
export interface ChaosOptions {
  /** The share of requests (and of webhook events) that get a fault, from 0 to 1: 0.05 is 5 %. */
  rate: number;
  /** The generator's seed, a whole number from 0 to 2^32 - 1. */
  seed: number;
  /** The kinds to pick from, evenly; default every request kind and every webhook kind. */
  faults?: readonly FaultKind[];
  /** Upper bound of the random wait of DELAY, DELAYED_DELIVERY and OUT_OF_ORDER, in ms. Default 500. */
  maxDelayMs?: number;
}

export const DEFAULT_CHAOS_MAX_DELAY_MS = 500;
/** The webhook stream's seed is the request seed mixed with this (2^32 / golden ratio), so the two differ. */
const WEBHOOK_STREAM = 0x9e3779b9;

/** The problems of chaos options, one line each (empty when they are valid). */
export function chaosOptionProblems(options: ChaosOptions): string[] {
  const problems: string[] = [];
  const { rate, seed, faults, maxDelayMs } = options;
  if (typeof rate !== "number" || !(rate >= 0 && rate <= 1)) problems.push("chaos.rate must be a number from 0 to 1");
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    problems.push("chaos.seed must be a whole number from 0 to 4294967295");
  if (faults !== undefined && (faults.length === 0 || faults.some((f) => !isRequestFault(f) && !isWebhookFault(f))))
    problems.push(`chaos.faults must list some of: ${[...REQUEST_FAULTS, ...WEBHOOK_FAULTS].join(", ")}`);
  if (maxDelayMs !== undefined && !(Number.isInteger(maxDelayMs) && maxDelayMs >= 1 && maxDelayMs <= MAX_DELAY_MS))
    problems.push(`chaos.maxDelayMs must be a whole number from 1 to ${MAX_DELAY_MS}`);
  return problems;
}

/**
 * One chaos decision from three draws of the generator (always three, so every decision moves the sequence
 * the same way): whether to fail (`roll < rate`), which kind, and how long a waiting kind waits (1 to maxDelayMs).
 *
 * @example
 * chaosPick([0.01, 0.5, 0.5], 0.05, ["HTTP_500", "DELAY"], 500); // { kind: "DELAY", delayMs: 251 }
 */
export function chaosPick<K extends FaultKind>(
  draws: readonly [number, number, number],
  rate: number,
  kinds: readonly K[],
  maxDelayMs: number,
): { kind: K; delayMs: number } | undefined {
  const [roll, which, wait] = draws;
  if (kinds.length === 0 || !(roll < rate)) return undefined;
  const kind = kinds[Math.min(kinds.length - 1, Math.floor(which * kinds.length))]!;
  const waits = kind === "DELAY" || kind === "DELAYED_DELIVERY" || kind === "OUT_OF_ORDER";
  return { kind, delayMs: waits ? 1 + Math.floor(wait * maxDelayMs) : 0 };
}

/** Picks chaos faults for requests and for webhook events, each from its own seeded stream. */
export class Chaos {
  readonly rate: number;
  readonly seed: number;
  private readonly requestKinds: readonly (typeof REQUEST_FAULTS)[number][];
  private readonly webhookKinds: readonly (typeof WEBHOOK_FAULTS)[number][];
  private readonly maxDelayMs: number;
  private readonly requestDraw: () => number;
  private readonly webhookDraw: () => number;

  constructor(options: ChaosOptions) {
    const problems = chaosOptionProblems(options);
    if (problems.length > 0) throw new TypeError(problems.join("; "));
    this.rate = options.rate;
    this.seed = options.seed;
    const kinds = options.faults ?? [...REQUEST_FAULTS, ...WEBHOOK_FAULTS];
    this.requestKinds = REQUEST_FAULTS.filter((k) => kinds.includes(k));
    this.webhookKinds = WEBHOOK_FAULTS.filter((k) => kinds.includes(k));
    this.maxDelayMs = options.maxDelayMs ?? DEFAULT_CHAOS_MAX_DELAY_MS;
    this.requestDraw = mulberry32(options.seed);
    this.webhookDraw = mulberry32((options.seed ^ WEBHOOK_STREAM) >>> 0);
  }

  /** The fault for the next request, if chaos picks one. */
  nextRequest(): AppliedFault | undefined {
    const draw = this.requestDraw;
    const picked = chaosPick([draw(), draw(), draw()], this.rate, this.requestKinds, this.maxDelayMs);
    return picked && { kind: picked.kind, source: "chaos", ruleId: null, delayMs: picked.delayMs };
  }

  /** The fault for the next webhook event, if chaos picks one. */
  nextEvent(): AppliedWebhookFault | undefined {
    const draw = this.webhookDraw;
    const picked = chaosPick([draw(), draw(), draw()], this.rate, this.webhookKinds, this.maxDelayMs);
    return picked && { kind: picked.kind, source: "chaos", ruleId: null, delayMs: picked.delayMs };
  }
}
