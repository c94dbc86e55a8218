import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  IdleMemoryPolicy,
  mallocTrim,
  onGlibc,
  QUIET_FOR_MS,
  QUIET_UTILIZATION,
  releaseMemoryWhenIdle,
  SAMPLE_EVERY_MS,
  WORTH_BUSY_MS,
} from './idle-memory.ts';

/** One sample with `activeMs` of it busy. */
const sample = (activeMs: number) => [activeMs, SAMPLE_EVERY_MS - activeMs] as const;
const quietSample = sample(SAMPLE_EVERY_MS * QUIET_UTILIZATION * 0.5);
const QUIET_SAMPLES = QUIET_FOR_MS / SAMPLE_EVERY_MS;

/** Feeds `count` samples; answers on which of them (1-based) the policy released. */
function feed(policy: IdleMemoryPolicy, count: number, one: readonly [number, number]): number[] {
  const released: number[] = [];
  for (let i = 1; i <= count; i++) if (policy.observe(...one)) released.push(i);
  return released;
}

describe('IdleMemoryPolicy', () => {
  it('releases once the start is followed by QUIET_FOR_MS of quiet, then only after more work', () => {
    const policy = new IdleMemoryPolicy();
    expect(feed(policy, 3, sample(SAMPLE_EVERY_MS / 2))).toEqual([]);
    expect(feed(policy, QUIET_SAMPLES * 3, quietSample)).toEqual([QUIET_SAMPLES]);
    // Some work, not enough yet: quiet afterwards gives nothing back.
    expect(feed(policy, 1, sample(WORTH_BUSY_MS / 4))).toEqual([]);
    expect(feed(policy, QUIET_SAMPLES * 2, quietSample)).toEqual([]);
    // Enough: released after the next quiet spell, once.
    expect(feed(policy, 2, sample(WORTH_BUSY_MS / 2))).toEqual([]);
    expect(feed(policy, QUIET_SAMPLES * 2, quietSample)).toEqual([QUIET_SAMPLES]);
  });

  it("never counts an idle server's own small work as a reason to release again", () => {
    const policy = new IdleMemoryPolicy();
    expect(feed(policy, 3_600, quietSample)).toEqual([QUIET_SAMPLES]);
  });

  it('needs the quiet unbroken, each second below its share of busy time', () => {
    const policy = new IdleMemoryPolicy();
    expect(feed(policy, QUIET_SAMPLES - 1, quietSample)).toEqual([]);
    // A second at the share is not quiet: the count starts again.
    expect(feed(policy, 1, sample(SAMPLE_EVERY_MS * QUIET_UTILIZATION))).toEqual([]);
    expect(feed(policy, QUIET_SAMPLES - 1, quietSample)).toEqual([]);
    expect(feed(policy, 1, quietSample)).toEqual([1]);
  });
});

describe('releaseMemoryWhenIdle', () => {
  afterEach(() => vi.useRealTimers());

  /** A fake event loop the test spends time on, second by second, with the timers advanced alongside. */
  function fakeLoop() {
    const totals = { active: 0, idle: 0 };
    return {
      loop: () => ({ ...totals }),
      async spend(seconds: number, [active, idle]: readonly [number, number]) {
        for (let i = 0; i < seconds; i++) {
          totals.active += active;
          totals.idle += idle;
          await vi.advanceTimersByTimeAsync(SAMPLE_EVERY_MS);
        }
      },
    };
  }

  it('samples the event loop on a timer, releases once per quiet spell after work, and stops', async () => {
    vi.useFakeTimers();
    const { loop, spend } = fakeLoop();
    const release = vi.fn(async () => 10e6);
    const stop = await releaseMemoryWhenIdle(pino({ level: 'silent' }), { loop, release });
    expect(stop).toBeTypeOf('function');

    await spend(3, sample(SAMPLE_EVERY_MS / 2));
    expect(release).not.toHaveBeenCalled();
    await spend(QUIET_SAMPLES, quietSample);
    expect(release).toHaveBeenCalledTimes(1);
    await spend(QUIET_SAMPLES * 3, quietSample);
    expect(release).toHaveBeenCalledTimes(1);

    await spend(2, sample(WORTH_BUSY_MS));
    stop!();
    await spend(QUIET_SAMPLES * 2, quietSample);
    expect(release).toHaveBeenCalledTimes(1);
  });

  it('does not start a release while one is still running, and survives a failed one', async () => {
    vi.useFakeTimers();
    const { loop, spend } = fakeLoop();
    let finish: (() => void) | undefined;
    const release = vi
      .fn<() => Promise<number>>()
      .mockImplementationOnce(() => new Promise((resolve) => (finish = () => resolve(0))))
      .mockRejectedValueOnce(new Error('boom'))
      .mockResolvedValue(0);
    const warn = vi.fn();
    const logger = pino({ level: 'warn' }, { write: (line: string) => warn(JSON.parse(line)) });
    const stop = await releaseMemoryWhenIdle(logger, { loop, release });
    const workThenQuiet = async () => {
      await spend(1, sample(WORTH_BUSY_MS));
      await spend(QUIET_SAMPLES, quietSample);
    };

    await spend(QUIET_SAMPLES, quietSample);
    expect(release).toHaveBeenCalledTimes(1);
    // Worth it again, but the first one has not finished.
    await workThenQuiet();
    expect(release).toHaveBeenCalledTimes(1);
    finish!();
    await workThenQuiet();
    expect(release).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ msg: 'giving memory back failed' }));
    await workThenQuiet();
    expect(release).toHaveBeenCalledTimes(3);
    stop!();
  });
});

describe('mallocTrim', () => {
  const glibc = onGlibc();

  it.runIf(glibc)("calls glibc's malloc_trim on Linux with glibc", async () => {
    const trim = await mallocTrim();
    expect(trim).toBeTypeOf('function');
    // 1 when it gave memory back, 0 when there was none to give: either way it ran.
    expect(typeof trim!()).toBe('boolean');
  });

  it.runIf(!glibc)('is absent elsewhere', async () => {
    expect(await mallocTrim()).toBeNull();
  });
});
