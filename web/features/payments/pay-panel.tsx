import { useEffect, useState } from 'react';
import { useRevalidator } from 'react-router';
import type { OrderPaymentPage, PayResult, Quote } from '#contract/payments';
import { api } from '../../lib/api.ts';
import {
  attemptEnded,
  attemptFor,
  canPay,
  expiredQuote,
  firstUsableMethod,
  isCryptoMethod,
  paidNote,
  payButtonText,
  quoteState,
  returnedOutcome,
  withBalanceNote,
  type Attempt,
} from './pay-logic.ts';
import { MethodOption, PayDone, PayWait, QuoteBox } from './pay-parts.tsx';
import { newIdempotencyKey, payOnce } from './pay-request.ts';
import { isAwaitingPayment } from '#contract/order-states';

// /payments/{orderId}: the order, the ways to pay with the amount in each currency, and paying. Every attempt
// carries its own Idempotency-Key, reused when the same attempt is retried (a lost answer never pays twice).

/** The countdown of a quote: the time now, every second while there is a quote. */
function useQuoteClock(quote: Quote | null) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!quote) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [quote]);
  return [now, setNow] as const;
}

/**
 * Back from the provider (or a payment still being confirmed): the webhook may arrive a moment later; the page
 * asks again until it has.
 */
function useRevalidateWhile(waiting: boolean, revalidator: ReturnType<typeof useRevalidator>) {
  useEffect(() => {
    if (!waiting) return;
    let tries = 0;
    const timer = setInterval(() => {
      if (++tries > 30) return clearInterval(timer);
      if (revalidator.state === 'idle') void revalidator.revalidate();
    }, 1500);
    return () => clearInterval(timer);
  }, [waiting, revalidator]);
}

/** `stage`: the order paid is a stage of an order in stages (ADR 065); `page.chat_id` is then its head's chat. */
export function PayPanel({ page, returnedPayment, stage = false }: { page: OrderPaymentPage; returnedPayment: string | null; stage?: boolean }) {
  const { order, methods, last_payment: last } = page;
  const revalidator = useRevalidator();
  const [method, setMethod] = useState<string>(() => firstUsableMethod(methods));
  const [quote, setQuote] = useState<Quote | null>(null);
  const [now, setNow] = useQuoteClock(quote);
  const [attempt, setAttempt] = useState<Attempt | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const chosen = methods.find((m) => m.method === method);
  const crypto = isCryptoMethod(method);
  const quoted = quoteState(quote, method, now);
  // A provider's payment being confirmed: its status instead of a second form, unless the customer chooses to pay
  // another way (should it arrive after all, the money goes to their balance: ADR 025).
  const waiting = last?.status === 'pending';
  const [otherWay, setOtherWay] = useState(false);
  useRevalidateWhile(waiting, revalidator);

  if (!isAwaitingPayment(order)) return <PayDone note={paidNote(returnedPayment, last)} chatId={page.chat_id} stage={stage} />;
  if (waiting && !otherWay) {
    const check = () => void revalidator.revalidate();
    return <PayWait method={last.method} checking={revalidator.state !== 'idle'} onCheck={check} onOtherWay={() => setOtherWay(true)} />;
  }

  async function getQuote() {
    if (!crypto) return;
    setBusy(true);
    setError(null);
    const res = await api.write('payments.quote', { body: { order_id: order._id, method } });
    setBusy(false);
    if (res.error) return setError(res.error.message);
    setQuote(res.data.result);
    setNow(Date.now());
  }

  async function pay() {
    const quoteId = crypto ? (quote?._id ?? null) : null;
    const current = attemptFor(attempt, method, quoteId, newIdempotencyKey);
    setAttempt(current);
    setBusy(true);
    setError(null);
    const res = await payOnce({ order_id: order._id, method, ...(quoteId ? { quote_id: quoteId } : {}) }, current.key);
    if (res.error) {
      setBusy(false);
      setError(res.error.message);
      if (attemptEnded(res.error.status)) setAttempt(null);
      if (res.error.status === 409 && quoteId) setQuote((q) => (q ? expiredQuote(q) : q));
      return;
    }
    const result: PayResult = res.data.result;
    if (result.redirect_url) {
      window.location.assign(result.redirect_url);
      return;
    }
    setBusy(false);
    await revalidator.revalidate();
  }

  const outcome = returnedOutcome(returnedPayment, last, page.balance.available);
  return (
    <div className="pay">
      {outcome && (
        <p className={outcome.tone === 'error' ? 'form-error' : 'notice pay__notice'} role={outcome.tone === 'error' ? 'alert' : 'status'}>
          {outcome.text}
        </p>
      )}
      <fieldset className="pay__methods">
        <legend className="pay__legend">Способ оплаты</legend>
        {methods.map((m) => (
          <MethodOption
            key={m.method}
            m={withBalanceNote(m, page.balance.available)}
            checked={method === m.method}
            onChoose={() => {
              setMethod(m.method);
              setError(null);
            }}
          />
        ))}
      </fieldset>
      {crypto && chosen?.usable && (
        <QuoteBox
          quote={quoted.shown ? quote : null}
          left={quoted.left}
          currency={chosen.currency}
          quoteMinutes={page.quote_minutes}
          busy={busy}
          onQuote={() => void getQuote()}
        />
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="button" className="btn btn--primary btn--block pay__submit" disabled={!canPay(chosen, busy, crypto, quoted.valid)} onClick={pay}>
        {payButtonText(busy, chosen, crypto && quoted.valid ? quote : null)}
      </button>
      <p className="muted pay__hint">Деньги хранятся на площадке и переходят исполнителю только после приёмки работы.</p>
    </div>
  );
}
