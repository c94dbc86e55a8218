/** The time as the platform sees it: due times, leases and backoff are read from here, so tests can move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until told to move (tests). */
export interface ManualClock extends Clock {
  set(to: Date | number): void;
  advance(ms: number): void;
}

export function manualClock(start: Date | number = Date.now()): ManualClock {
  let at = new Date(start).getTime();
  return {
    now: () => new Date(at),
    set: (to) => void (at = new Date(to).getTime()),
    advance: (ms) => void (at += ms),
  };
}
