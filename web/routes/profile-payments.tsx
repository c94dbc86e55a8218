import type { Route } from './+types/profile-payments';
import { pageMeta } from '../lib/meta.ts';
import { PaymentsTable, WithdrawalsTable } from '../features/payments/index.ts';
import '../styles/payments.css';

// /profile/payments: the person's payments of orders and their withdrawals, with their states.

export async function loader({ context }: Route.LoaderArgs) {
  const [payments, withdrawals] = await Promise.all([
    context.read('payments.mine', { query: { limit: 50 } }),
    context.read('withdrawals.mine', { query: { limit: 50 } }),
  ]);
  return {
    payments: payments.ok ? payments.body.result : [],
    withdrawals: withdrawals.ok ? withdrawals.body.result : [],
    failed: !payments.ok || !withdrawals.ok,
  };
}

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, 'Платежи'), { name: 'robots', content: 'noindex' }];

export default function PaymentsPage({ loaderData }: Route.ComponentProps) {
  const { payments, withdrawals, failed } = loaderData;
  return (
    <section className="page">
      <h1 className="page__title">Платежи</h1>
      {failed && <p className="form-error">Не удалось загрузить данные. Обновите страницу через минуту.</p>}
      <h2 className="finance__subtitle">Оплаты заказов</h2>
      <PaymentsTable payments={payments} />
      <h2 className="finance__subtitle">Выводы средств</h2>
      <WithdrawalsTable withdrawals={withdrawals} />
    </section>
  );
}
