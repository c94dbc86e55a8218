import { describe, expect, it } from 'vitest';
import { TWO_FACTOR_CODES } from '#contract/two-factor';
import type { Sent } from '../../lib/api.ts';
import { settleStepUp, stepUpStore, withStepUp } from './step-up.ts';

// ADR 054: a change refused with step_up_required opens the code dialog and is sent again once a code was accepted.

const refused: Sent<string> = { error: { status: 403, message: 'Подтвердите действие', code: TWO_FACTOR_CODES.stepUpRequired } };
const done: Sent<string> = { data: 'ok' };

/** A change that answers these, one per call, and counts the calls. */
function sender(...answers: Sent<string>[]) {
  const calls = { n: 0 };
  return { calls, send: async () => answers[Math.min(calls.n++, answers.length - 1)]! };
}
const dialogOpened = () => new Promise<void>((resolve) => {
  const stop = stepUpStore.subscribe(() => {
    if (stepUpStore.get()) {
      stop();
      resolve();
    }
  });
});

describe('withStepUp', () => {
  it('passes any other answer through without asking', async () => {
    const { calls, send } = sender({ error: { status: 403, message: 'Нет доступа' } });
    expect((await withStepUp(send)).error?.message).toBe('Нет доступа');
    expect(calls.n).toBe(1);
    expect(stepUpStore.get()).toBeNull();
  });

  it('asks for a code and sends the change again once it was accepted', async () => {
    const { calls, send } = sender(refused, done);
    const result = withStepUp(send);
    await dialogOpened();
    settleStepUp(true);
    expect(await result).toEqual(done);
    expect(calls.n).toBe(2);
  });

  it('answers the refusal when the dialog is closed without a code', async () => {
    const { calls, send } = sender(refused, done);
    const result = withStepUp(send);
    await dialogOpened();
    settleStepUp(false);
    expect((await result).error?.code).toBe(TWO_FACTOR_CODES.stepUpRequired);
    expect(calls.n).toBe(1);
  });
});
