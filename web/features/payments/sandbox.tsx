import { useState } from 'react';
import { formatCurrency } from '#contract/money-format';
import { TOP_UP_TITLE } from '#contract/payment-constants';
import { api } from '../../lib/api.ts';
import { AppLink } from '../../components/ui/app-link.tsx';

// The sandbox provider's confirmation page (/sandbox-pay/{paymentId}): a stand-in for a bank's or a crypto
// processor's page. Its buttons make the sandbox send its signed webhook; then the customer goes back.

export interface SandboxPayment {
  _id: string;
  status: string;
  currency: 'RUB' | 'USDT' | 'BTC';
  currency_amount: number;
  /** Null for a top-up of the balance (ADR 062). */
  order: { _id: string; number: number; title: string } | null;
  return_url: string;
}

export function SandboxPage({ payment }: { payment: SandboxPayment }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function decide(decision: 'pay' | 'decline') {
    setBusy(true);
    setError(null);
    const res = await api.write('payments.sandboxDecide', { params: { paymentId: payment._id, decision } });
    if (res.error) {
      setBusy(false);
      return setError(res.error.message);
    }
    window.location.assign(res.data.result.return_url);
  }

  return (
    <section className="page sandbox">
      <div className="card sandbox__card">
        <p className="sandbox__badge">Песочница · деньги не списываются</p>
        <h1 className="page__title">Тестовая оплата</h1>
        <p className="muted">{payment.order ? `Заказ №${payment.order.number} · ${payment.order.title}` : TOP_UP_TITLE}</p>
        <p className="sandbox__amount">{formatCurrency(payment.currency_amount, payment.currency)}</p>
        {payment.status === 'pending' ? (
          <div className="sandbox__actions">
            <button type="button" className="btn btn--primary" disabled={busy} onClick={() => decide('pay')}>
              Оплатить
            </button>
            <button type="button" className="btn btn--ghost" disabled={busy} onClick={() => decide('decline')}>
              Отклонить
            </button>
          </div>
        ) : (
          <p className="notice">
            {payment.status === 'expired' ? 'Курс устарел, получите новый расчёт.' : 'Этот платёж уже обработан.'}{' '}
            <AppLink to={payment.return_url}>Вернуться к заказу</AppLink>
          </p>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </div>
    </section>
  );
}
