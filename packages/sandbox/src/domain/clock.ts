// An organization's sandbox clock: real time plus the organization's own offset, which tests move forward (POST
// /_sandbox/clock/advance). The records of an organization take their timestamps, quotation expiry, history
// dates and daily limits from its clock; request authentication uses real time, so advancing a clock never
// makes signed requests stale. Timers (automatic progress, webhook retries) run on real time too: advancing a
// clock fires nothing early, for any organization.
import type { OrganizationState } from "./organization-state.js";

/** The latest sandbox time: timestamps keep the four-digit years of ISO 8601 (and stay far inside Date's range). */
const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * An organization's clock as read once (its offset read from the store when the clock was taken): a request reads
 * it at most once, and every timestamp it makes agrees.
 *
 * @example
 * const clock = await domain.clock(org); // reads the offset
 * clock.iso(); // "2026-11-29T09:00:00.000Z", no read
 */
export class SandboxClock {
  constructor(
    private readonly state: Pick<OrganizationState, "setClockOffsetMs">,
    /** The organization whose clock this is. */
    readonly org: string,
    /** How far it is ahead of real time (negative: behind), in milliseconds, as read. */
    private offsetMs: number,
  ) {}

  /** Milliseconds since the epoch, sandbox time. */
  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  iso(): string {
    return new Date(this.nowMs()).toISOString();
  }

  get offsetSeconds(): number {
    return this.offsetMs / 1000;
  }

  /** Whether advancing by `seconds` keeps sandbox time between 1970 and the end of year 9999. */
  canAdvance(seconds: number): boolean {
    if (!Number.isFinite(seconds)) return false;
    const next = this.nowMs() + Math.round(seconds * 1000);
    return next >= 0 && next <= LATEST_MS;
  }

  /** Moves this organization's time forward (or back, with a negative value) and returns the new time. */
  async advance(seconds: number): Promise<Date> {
    if (!this.canAdvance(seconds)) throw new RangeError("the clock can move between 1970 and the end of 9999 only");
    this.offsetMs += Math.round(seconds * 1000);
    await this.state.setClockOffsetMs(this.org, this.offsetMs);
    return this.now();
  }
}
