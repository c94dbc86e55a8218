import { Form, useRevalidator, useSearchParams } from 'react-router';
import type { Route } from './+types/admin-payments';
import { pageMeta } from '../features/shell/index.ts';
import { SelectField } from '../components/ui/form.tsx';
import { AdminWithdrawals, MoneySettingsForm, PAYMENT_STATUS_LABELS, PaymentsTable, WITHDRAWAL_STATUS_LABELS } from '../features/payments/index.ts';
import '../styles/items.css';
import '../styles/payments.css';

// /admin/payments: withdrawals to approve or reject, the payments, and the money settings.

const WITHDRAWAL_FILTERS = ['pending', 'approved', 'rejected'] as const;
const PAYMENT_FILTERS = ['pending', 'succeeded', 'failed', 'expired', 'credited'] as const;
const pick = <T extends string>(list: readonly T[], value: string | null): T | undefined => list.find((v) => v === value);

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const wStatus = url.searchParams.has('w') ? pick(WITHDRAWAL_FILTERS, url.searchParams.get('w')) : 'pending';
  const pStatus = pick(PAYMENT_FILTERS, url.searchParams.get('p'));
  const [withdrawals, payments, settings] = await Promise.all([
    context.read('admin.withdrawals.list', { query: { limit: 50, ...(wStatus ? { status: wStatus } : {}) } }),
    context.read('admin.payments.list', { query: { limit: 50, ...(pStatus ? { status: pStatus } : {}) } }),
    context.read('admin.settings.get'),
  ]);
  return {
    withdrawals: withdrawals.ok ? withdrawals.body.result : [],
    payments: payments.ok ? payments.body.result : [],
    settings: settings.ok ? settings.body.result : null,
    wStatus: wStatus ?? '',
    pStatus: pStatus ?? '',
  };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Выплаты и платежи');

export default function AdminPaymentsPage({ loaderData }: Route.ComponentProps) {
  const { withdrawals, payments, settings, wStatus, pStatus } = loaderData;
  const revalidator = useRevalidator();
  const [params] = useSearchParams();
  return (
    <section className="page">
      <h1 className="page__title">Выплаты и платежи</h1>

      <h2 className="finance__subtitle">Заявки на вывод</h2>
      <Form method="get" className="toolbar" onChange={(e) => e.currentTarget.requestSubmit()}>
        <SelectField
          label="Статус заявки"
          name="w"
          defaultValue={wStatus}
          options={[{ value: '', label: 'Все' }, ...WITHDRAWAL_FILTERS.map((s) => ({ value: s, label: WITHDRAWAL_STATUS_LABELS[s] }))]}
        />
        {params.get('p') && <input type="hidden" name="p" value={params.get('p') ?? ''} />}
      </Form>
      <AdminWithdrawals withdrawals={withdrawals} onChanged={() => void revalidator.revalidate()} />

      <h2 className="finance__subtitle">Платежи</h2>
      <Form method="get" className="toolbar" onChange={(e) => e.currentTarget.requestSubmit()}>
        <input type="hidden" name="w" value={wStatus} />
        <SelectField
          label="Статус платежа"
          name="p"
          defaultValue={pStatus}
          options={[{ value: '', label: 'Все' }, ...PAYMENT_FILTERS.map((s) => ({ value: s, label: PAYMENT_STATUS_LABELS[s] }))]}
        />
      </Form>
      <PaymentsTable payments={payments} admin />

      <h2 className="finance__subtitle">Денежные настройки</h2>
      {settings ? (
        <MoneySettingsForm settings={settings} onSaved={() => void revalidator.revalidate()} />
      ) : (
        <p className="form-error">Не удалось загрузить настройки.</p>
      )}
    </section>
  );
}
