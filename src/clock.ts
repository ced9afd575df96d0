/**
 * One clock for every time-dependent rule: code expiry, schedules, frequency windows, daily
 * counters. The process clock is shared; each app may run ahead of it by its own offset
 * (apps.clock_offset_ms), so parallel test suites can move time without disturbing each other.
 */
export interface Clock {
  now(): number
  /**
   * A clock that can jump (ManualClock) tells who waits on it, so that the scheduler re-arms its
   * timer at once rather than on its next request (scheduler/index.ts).
   */
  onMove?(listener: () => void): void
}

export const systemClock: Clock = { now: () => Date.now() }

/** A clock that only moves when told to: for tests and benchmarks. */
export class ManualClock implements Clock {
  private listeners: Array<() => void> = []
  constructor(private t = Date.parse('2026-01-01T00:00:00.000Z')) {}
  now(): number {
    return this.t
  }
  advance(ms: number): void {
    this.t += ms
    this.moved()
  }
  set(ms: number): void {
    this.t = ms
    this.moved()
  }
  onMove(listener: () => void): void {
    this.listeners.push(listener)
  }
  private moved(): void {
    for (const listener of this.listeners) listener()
  }
}

/** The time as one app sees it. */
export function appNow(clock: Clock, app: { clockOffsetMs: number }): number {
  return clock.now() + app.clockOffsetMs
}
