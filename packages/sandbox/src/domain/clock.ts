// The sandbox clock: real time plus an offset that tests move forward (POST /_sandbox/clock/advance). Record
// timestamps, quotation expiry and history dates use it; request authentication uses real time, so advancing
// the clock never makes signed requests stale.

export class SandboxClock {
  constructor(
    private offsetMs = 0,
    private readonly onChange: (offsetMs: number) => void = () => {},
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

  /** Moves sandbox time forward (or back, with a negative value) and returns the new time. */
  advance(seconds: number): Date {
    if (!Number.isFinite(seconds)) throw new RangeError("seconds must be a finite number");
    this.offsetMs += Math.round(seconds * 1000);
    this.onChange(this.offsetMs);
    return this.now();
  }
}
