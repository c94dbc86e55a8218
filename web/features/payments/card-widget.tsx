import { useEffect, useId, useState } from 'react';
import type { FinanceBalance } from '#contract/payments';
import { PAYMENT_MESSAGES } from '#contract/payment-constants';
import { widgetCardOf, type WidgetCard } from './withdraw-rules.ts';

// ЮKassa's payout widget on the withdraw form (ADR 050): its script is loaded once, then `new PayoutsData({type:
// 'payout', account_id, success_callback, error_callback}).render(id)` draws the card form in the element; the card
// number is typed into the widget and stays with ЮKassa (or, in the sandbox, in the browser): this page gets the
// token and the mask only. A script that cannot load says so, with a retry.

type Widget = NonNullable<FinanceBalance['card_widget']>;

interface PayoutsDataOptions {
  type: 'payout';
  account_id: string;
  success_callback: (data: unknown) => void;
  error_callback: (error: unknown) => void;
}
interface PayoutsDataInstance {
  render(containerId: string): Promise<unknown>;
  clearListeners?(): void;
}
declare global {
  interface Window {
    PayoutsData?: new (options: PayoutsDataOptions) => PayoutsDataInstance;
  }
}

/** A script that has not loaded by then is taken as failed. */
const LOAD_TIMEOUT_MS = 15_000;
const loads = new Map<string, Promise<void>>();

/** The widget's script, once per address; a failed load is forgotten, so that a retry loads it again. */
function loadScript(url: string): Promise<void> {
  const known = loads.get(url);
  if (known) return known;
  const loading = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    const fail = () => {
      script.remove();
      loads.delete(url);
      reject(new Error(`payout widget ${url} did not load`));
    };
    const timer = window.setTimeout(fail, LOAD_TIMEOUT_MS);
    script.src = url;
    script.async = true;
    script.onload = () => {
      window.clearTimeout(timer);
      if (window.PayoutsData) resolve();
      else fail();
    };
    script.onerror = () => {
      window.clearTimeout(timer);
      fail();
    };
    document.head.appendChild(script);
  });
  loads.set(url, loading);
  return loading;
}

export function CardWidget({ widget, onCard }: { widget: Widget; onCard: (card: WidgetCard) => void }) {
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [attempt, setAttempt] = useState(0);
  // One element per widget: the finance page can show two (a deal's payout and the withdraw form), and the widget
  // draws into the element of this id. Letters, digits and dashes only, whatever React's id looks like.
  const containerId = `payout-widget-form-${useId().replace(/[^\w-]/g, '')}`;

  useEffect(() => {
    let live = true;
    let instance: PayoutsDataInstance | null = null;
    loadScript(widget.script_url)
      .then(() => {
        if (!live) return;
        instance = new window.PayoutsData!({
          type: 'payout',
          account_id: widget.account_id,
          success_callback: (data) => {
            const card = widgetCardOf(data);
            if (card && live) onCard(card);
          },
          error_callback: () => {},
        });
        return instance.render(containerId).then(() => live && setState('ready'));
      })
      .catch(() => live && setState('failed'));
    return () => {
      live = false;
      instance?.clearListeners?.();
    };
  }, [widget.script_url, widget.account_id, attempt, onCard, containerId]);

  return (
    <div className="fin-card-widget">
      {state === 'loading' && <p className="muted">Загружаем защищённую форму ввода карты…</p>}
      {state === 'failed' && (
        <div className="notice" role="alert">
          <p>{PAYMENT_MESSAGES.cardWidgetFailed}</p>
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => {
              setState('loading');
              setAttempt((n) => n + 1);
            }}>
            Попробовать ещё раз
          </button>
        </div>
      )}
      <div id={containerId} data-testid="payout-widget" hidden={state === 'failed'} />
    </div>
  );
}
