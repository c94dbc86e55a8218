import { TWO_FACTOR_CODES } from '#contract/two-factor';
import type { Sent } from '../../lib/api.ts';
import { createStore } from '../../lib/store.ts';

// Step-up (ADR 054): a withdrawal or a change of payout details, email or password answered 403 step_up_required
// opens the code dialog (StepUpDialog, mounted by the pages that make such changes); once the code is accepted the
// server has set its short-lived cookie and the change is sent again.

interface Asking {
  /** Settles the question: true once a code was accepted, false when the person closed the dialog. */
  resolve(confirmed: boolean): void;
}

export const stepUpStore = createStore<Asking | null>(null);

/** Opens the dialog; resolves when it closes. A second question while one is open joins the first. */
function ask(): Promise<boolean> {
  const open = stepUpStore.get();
  if (open) {
    return new Promise((resolve) => {
      const first = open.resolve;
      stepUpStore.set({ resolve: (ok) => (first(ok), resolve(ok)) });
    });
  }
  return new Promise((resolve) => stepUpStore.set({ resolve }));
}

/** Sends a change; if the server wants a fresh second factor, asks for a code and sends it once more. */
export async function withStepUp<A>(send: () => Promise<Sent<A>>): Promise<Sent<A>> {
  const first = await send();
  if (first.error?.code !== TWO_FACTOR_CODES.stepUpRequired) return first;
  if (!(await ask())) return first;
  return send();
}

/** The dialog's answer. */
export function settleStepUp(confirmed: boolean) {
  const open = stepUpStore.get();
  stepUpStore.set(null);
  open?.resolve(confirmed);
}
