import { useRevalidator, useSearchParams } from 'react-router';
import { GetForm } from '../components/ui/get-form.tsx';
import type { Route } from './+types/admin-payments';
import { pageMeta } from '../lib/meta.ts';
import { SelectField } from '../components/ui/form.tsx';
import { AppLink } from '../components/ui/app-link.tsx';
import { AdminWithdrawals, PAYMENT_STATUS_LABELS, PaymentDifferences, PaymentsTable, ProviderState, WITHDRAWAL_STATUS_LABELS } from '../features/payments/index.ts';
import '../styles/items.css';
import '../styles/payments.css';

// /admin/payments: the differences the daily reconciliation with the providers found, withdrawals to approve or
// reject and the payments, each list with its filters and keyset pages
// (?w=&wc= and ?p=&m=&pc=). The money settings are on /admin/settings.

const WITHDRAWAL_FILTERS = ['pending', 'sending', 'approved', 'rejected', 'returned'] as const;
const PAYMENT_FILTERS = ['pending', 'succeeded', 'failed', 'expired', 'credited'] as const;
const METHOD_FILTERS = ['balance', 'card', 'usdt', 'btc'] as const;
const METHOD_LABELS: Record<(typeof METHOD_FILTERS)[number], string> = { balance: 'С баланса', card: 'Карта', usdt: 'USDT', btc: 'Bitcoin' };
const pick = <T extends string>(list: readonly T[], value: string | null): T | undefined => list.find((v) => v === value);
const PAGE = 30;

export async function loader({ context, url }: Route.LoaderArgs) {
  const q = url.searchParams;
  const wStatus = q.has('w') ? pick(WITHDRAWAL_FILTERS, q.get('w')) : 'pending';
  const pStatus = pick(PAYMENT_FILTERS, q.get('p'));
  const method = pick(METHOD_FILTERS, q.get('m'));
  const wCursor = q.get('wc');
  const pCursor = q.get('pc');
  const [withdrawals, payments, differences] = await Promise.all([
    context.read('admin.withdrawals.list', { query: { limit: PAGE, ...(wStatus ? { status: wStatus } : {}), ...(wCursor ? { cursor: wCursor } : {}) } }),
    context.read('admin.payments.list', {
      query: { limit: PAGE, ...(pStatus ? { status: pStatus } : {}), ...(method ? { method } : {}), ...(pCursor ? { cursor: pCursor } : {}) },
    }),
    context.read('admin.payments.differences', { query: { limit: 50 } }),
  ]);
  return {
    withdrawals: withdrawals.ok ? withdrawals.body.result : [],
    wNext: withdrawals.ok ? withdrawals.body.next : null,
    payments: payments.ok ? payments.body.result : [],
    pNext: payments.ok ? payments.body.next : null,
    differences: differences.ok ? differences.body.result : [],
    failed: !withdrawals.ok || !payments.ok || !differences.ok,
    wStatus: wStatus ?? '',
    pStatus: pStatus ?? '',
    method: method ?? '',
  };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Выплаты и платежи');

export default function AdminPaymentsPage({ loaderData }: Route.ComponentProps) {
  const { withdrawals, wNext, payments, pNext, differences, failed, wStatus, pStatus, method } = loaderData;
  const revalidator = useRevalidator();
  const [params] = useSearchParams();
  /** This page with some parameters changed (null drops one). */
  const link = (change: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(change)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    const search = next.toString();
    return search ? `?${search}` : '/admin/payments';
  };
  return (
    <section className="page">
      <h1 className="page__title">Выплаты и платежи</h1>
      <p className="muted">
        Комиссии способов оплаты, лимиты и минимальный вывод — в <AppLink to="/admin/settings#payments">настройках</AppLink>.
      </p>
      {failed && <p className="form-error">Не удалось загрузить списки. Проверьте фильтры или обновите страницу.</p>}

      <PaymentDifferences differences={differences} onChanged={() => void revalidator.revalidate()} />

      <h2 className="finance__subtitle">Заявки на вывод</h2>
      <GetForm className="toolbar" onChange={(e) => e.currentTarget.requestSubmit()}>
        <SelectField
          label="Статус заявки"
          name="w"
          defaultValue={wStatus}
          options={[{ value: '', label: 'Все' }, ...WITHDRAWAL_FILTERS.map((s) => ({ value: s, label: WITHDRAWAL_STATUS_LABELS[s] }))]}
        />
        {pStatus && <input type="hidden" name="p" value={pStatus} />}
        {method && <input type="hidden" name="m" value={method} />}
        <noscript>
          <button type="submit" className="btn btn--ghost">
            Показать
          </button>
        </noscript>
      </GetForm>
      <AdminWithdrawals withdrawals={withdrawals} onChanged={() => void revalidator.revalidate()} />
      <Pager more={wNext ? link({ wc: wNext }) : null} first={params.has('wc') ? link({ wc: null }) : null} label="заявок" />

      <h2 className="finance__subtitle">Платежи</h2>
      <GetForm className="toolbar" onChange={(e) => e.currentTarget.requestSubmit()}>
        <input type="hidden" name="w" value={wStatus} />
        <SelectField
          label="Статус платежа"
          name="p"
          defaultValue={pStatus}
          options={[{ value: '', label: 'Все' }, ...PAYMENT_FILTERS.map((s) => ({ value: s, label: PAYMENT_STATUS_LABELS[s] }))]}
        />
        <SelectField
          label="Способ"
          name="m"
          defaultValue={method}
          options={[{ value: '', label: 'Все' }, ...METHOD_FILTERS.map((m) => ({ value: m, label: METHOD_LABELS[m] }))]}
        />
        <noscript>
          <button type="submit" className="btn btn--ghost">
            Показать
          </button>
        </noscript>
      </GetForm>
      <PaymentsTable payments={payments} admin provider={(p) => <ProviderState key={p._id} payment={p} />} />
      <Pager more={pNext ? link({ pc: pNext }) : null} first={params.has('pc') ? link({ pc: null }) : null} label="платежей" />
    </section>
  );
}

function Pager({ more, first, label }: { more: string | null; first: string | null; label: string }) {
  if (!more && !first) return null;
  return (
    <nav className="toolbar" aria-label={`Страницы ${label}`}>
      {first && (
        <AppLink to={first} className="btn btn--ghost">
          В начало
        </AppLink>
      )}
      {more && (
        <AppLink to={more} className="btn btn--ghost" rel="next">
          Следующая страница
        </AppLink>
      )}
    </nav>
  );
}
