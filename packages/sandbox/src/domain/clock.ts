// An organization's sandbox clock: real time plus the organization's own offset, which tests move forward (POST
// /_sandbox/clock/advance). The records of an organization take their timestamps, quotation expiry, history
// dates and daily limits from its clock; request authentication uses real time, so advancing a clock never
// makes signed requests stale. Timers (automatic progress, webhook retries) run on real time too: advancing a
// clock fires nothing early, for any organization.
import type { OrganizationState } from "./organization-state.js";

/** The latest sandbox time: timestamps keep the four-digit years of ISO 8601 (and stay far inside Date's range). */
const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export class SandboxClock {
  constructor(
    private readonly state: Pick<OrganizationState, "clockOffsetMs" | "setClockOffsetMs">,
    /** The organization whose clock this is. */
    readonly org: string,
  ) {}

  /** Milliseconds since the epoch, sandbox time. */
  nowMs(): number {
    return Date.now() + this.state.clockOffsetMs(this.org);
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  iso(): string {
    return new Date(this.nowMs()).toISOString();
  }

  get offsetSeconds(): number {
    return this.state.clockOffsetMs(this.org) / 1000;
  }

  /** Whether advancing by `seconds` keeps sandbox time between 1970 and the end of year 9999. */
  canAdvance(seconds: number): boolean {
    if (!Number.isFinite(seconds)) return false;
    const next = this.nowMs() + Math.round(seconds * 1000);
    return next >= 0 && next <= LATEST_MS;
  }

  /** Moves this organization's time forward (or back, with a negative value) and returns the new time. */
  advance(seconds: number): Date {
    if (!this.canAdvance(seconds)) throw new RangeError("the clock can move between 1970 and the end of 9999 only");
    this.state.setClockOffsetMs(this.org, this.state.clockOffsetMs(this.org) + Math.round(seconds * 1000));
    return this.now();
  }
}
