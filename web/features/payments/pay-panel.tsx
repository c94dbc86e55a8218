import { useEffect, useState } from 'react';
import { useRevalidator } from 'react-router';
import type { ApiError } from '#contract/api';
import type { OrderPayMethod, OrderPaymentPage, PayResult, Quote } from '#contract/payments';
import { formatCurrency, rubles } from '#contract/payment-constants';
import { api, apiBaseUrl } from '../../lib/api.ts';
import { ofetch } from 'ofetch';
import { routeOf } from '#contract/routes';
import { MESSAGES } from '#contract/messages';
import { getToken } from '../../lib/token.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { PAYMENT_STATUS_LABELS } from './labels.ts';

// /payments/{orderId}: the order, the ways to pay with the amount in each currency, and paying. Every attempt
// carries its own Idempotency-Key, reused when the same attempt is retried (a lost answer never pays twice).

interface Attempt {
  key: string;
  method: string;
  quoteId: string | null;
}

const countdown = (ms: number) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

function MethodOption({ m, checked, onChoose }: { m: OrderPayMethod; checked: boolean; onChoose: () => void }) {
  const amount = m.amount === null ? '—' : formatCurrency(m.amount, m.currency);
  return (
    <label className={`pay-method${checked ? ' pay-method--on' : ''}${m.usable ? '' : ' pay-method--off'}`}>
      <input type="radio" name="method" value={m.method} checked={checked} disabled={!m.usable} onChange={onChoose} />
      <span className="pay-method__body">
        <span className="pay-method__title">{m.title}</span>
        <span className="pay-method__note">
          {m.reason ?? (m.fee > 0 ? `Комиссия ${m.fee_percent} % — ${rubles(m.fee)}` : 'Без комиссии')}
        </span>
      </span>
      <span className="pay-method__amount">{m.method === 'usdt' || m.method === 'btc' ? `≈ ${amount}` : amount}</span>
    </label>
  );
}

export function PayPanel({ page, returnedPayment }: { page: OrderPaymentPage; returnedPayment: string | null }) {
  const { order, methods, last_payment: last } = page;
  const revalidator = useRevalidator();
  const firstUsable = methods.find((m) => m.usable)?.method ?? 'card';
  const [method, setMethod] = useState<string>(firstUsable);
  const [quote, setQuote] = useState<Quote | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [attempt, setAttempt] = useState<Attempt | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const chosen = methods.find((m) => m.method === method);
  const crypto = method === 'usdt' || method === 'btc';
  const quoteLeft = quote ? Date.parse(quote.quote_expires_at) - now : 0;
  const waiting = returnedPayment !== null && last?._id === returnedPayment && last.status === 'pending';

  // The countdown of a quote.
  useEffect(() => {
    if (!quote) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [quote]);

  // Back from the provider: the webhook may arrive a moment later; the page asks again until it has.
  useEffect(() => {
    if (!waiting) return;
    let tries = 0;
    const timer = setInterval(() => {
      if (++tries > 30) return clearInterval(timer);
      if (revalidator.state === 'idle') void revalidator.revalidate();
    }, 1500);
    return () => clearInterval(timer);
  }, [waiting, revalidator]);

  if (order.status !== 'awaiting_payment') {
    return (
      <div className="card pay-done" role="status">
        <h2 className="pay-done__title">Заказ оплачен</h2>
        <p className="muted">
          {last?._id === returnedPayment && last?.status === 'credited'
            ? 'Заказ уже был оплачен раньше — деньги зачислены на ваш баланс.'
            : 'Деньги зарезервированы до приёмки работы. Исполнитель уже может приступать.'}
        </p>
        <p className="pay-done__actions">
          <AppLink className="btn btn--primary" to={page.chat_id ? `/profile/messages?tab=orders&chat=${page.chat_id}` : '/profile/messages?tab=orders'}>
            Перейти в чат заказа
          </AppLink>
          <AppLink className="btn btn--ghost" to="/profile/payments">
            Мои платежи
          </AppLink>
        </p>
      </div>
    );
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
    // The same attempt (method and quote) keeps its key: a retry after a lost answer is recognised.
    const current = attempt && attempt.method === method && attempt.quoteId === quoteId ? attempt : { key: newIdempotencyKey(), method, quoteId };
    setAttempt(current);
    setBusy(true);
    setError(null);
    const res = await payOnce({ order_id: order._id, method, ...(quoteId ? { quote_id: quoteId } : {}) }, current.key);
    if (res.error) {
      setBusy(false);
      setError(res.error.message);
      // A definite answer ends the attempt; a lost one (no status, 5xx) is retried with the same key.
      if (res.error.status > 0 && res.error.status < 500) setAttempt(null);
      if (res.error.status === 409 && quoteId) setQuote((q) => (q ? { ...q, quote_expires_at: new Date(0).toISOString() } : q));
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

  const quoteValid = quote !== null && quote.method === method && quoteLeft > 0;
  const canPay = Boolean(chosen?.usable) && !busy && (!crypto || quoteValid);

  return (
    <div className="pay">
      {waiting && (
        <p className="notice" role="status">
          Ждём подтверждения платежа…
        </p>
      )}
      {returnedPayment && last?._id === returnedPayment && last.status !== 'pending' && last.status !== 'succeeded' && (
        <p className="form-error" role="alert">
          {PAYMENT_STATUS_LABELS[last.status]}
          {last.failure_reason ? `: ${last.failure_reason}` : ''}. Попробуйте ещё раз или выберите другой способ.
        </p>
      )}
      <fieldset className="pay__methods">
        <legend className="pay__legend">Способ оплаты</legend>
        {methods.map((m) => (
          <MethodOption
            key={m.method}
            m={m.method === 'balance' && m.usable ? { ...m, reason: `Доступно ${rubles(page.balance.available)}` } : m}
            checked={method === m.method}
            onChoose={() => {
              setMethod(m.method);
              setError(null);
            }}
          />
        ))}
      </fieldset>

      {crypto && chosen?.usable && (
        <div className="pay-quote">
          {quote && quote.method === method ? (
            <>
              <p className="pay-quote__amount">
                К оплате: <strong>{formatCurrency(quote.currency_amount, quote.currency)}</strong>
              </p>
              <p className="muted">
                Курс: 1 {quote.currency} = {rubles(Math.round(quote.rate * 100))}
              </p>
              {quoteLeft > 0 ? (
                <p className="pay-quote__timer" aria-live="polite">
                  Курс зафиксирован на {countdown(quoteLeft)}
                </p>
              ) : (
                <p className="form-error" role="alert">
                  Курс устарел, получите новый расчёт
                </p>
              )}
              {quoteLeft <= 0 && (
                <button type="button" className="btn btn--ghost" disabled={busy} onClick={getQuote}>
                  Обновить курс
                </button>
              )}
            </>
          ) : (
            <button type="button" className="btn btn--ghost" disabled={busy} onClick={getQuote}>
              Рассчитать сумму в {chosen.currency}
            </button>
          )}
          <p className="muted pay-quote__hint">Курс фиксируется на {page.quote_minutes} минут.</p>
        </div>
      )}

      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="button" className="btn btn--primary btn--block pay__submit" disabled={!canPay} onClick={pay}>
        {busy ? 'Оплата…' : chosen?.amount != null && chosen.usable ? `Оплатить ${crypto && quoteValid ? formatCurrency(quote!.currency_amount, quote!.currency) : formatCurrency(chosen.amount, chosen.currency)}` : 'Оплатить'}
      </button>
      <p className="muted pay__hint">Деньги хранятся на площадке и переходят исполнителю только после приёмки работы.</p>
    </div>
  );
}

/**
 * POST /api/payments/pay with the attempt's Idempotency-Key. Sent here rather than by api.write, whose client takes
 * no headers: the guests' shared transport stays as small as it is.
 */
async function payOnce(body: Record<string, string>, key: string): Promise<{ data: { result: PayResult }; error?: undefined } | { data?: undefined; error: ApiError }> {
  const { method, path } = routeOf('payments.pay');
  const token = getToken();
  try {
    const data = await ofetch<{ result: PayResult }>(path, {
      baseURL: apiBaseUrl(),
      method,
      body,
      retry: 0,
      headers: { 'Idempotency-Key': key, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { data };
  } catch (err) {
    const e = err as { data?: Partial<ApiError>; status?: number; statusCode?: number };
    return { error: { status: e.data?.status ?? e.statusCode ?? e.status ?? 0, message: e.data?.message ?? MESSAGES.unexpected, errors: e.data?.errors } };
  }
}

/** A fresh Idempotency-Key (crypto.randomUUID needs a secure context: a fallback for plain-HTTP previews). */
function newIdempotencyKey(): string {
  if (typeof globalThis.crypto?.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}
