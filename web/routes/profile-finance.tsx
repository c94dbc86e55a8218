import { useEffect, useState } from 'react';
import { useRevalidator, useSearchParams } from 'react-router';
import type { Route } from './+types/profile-finance';
import type { FinanceEntry } from '#contract/payments';
import { api } from '../lib/api.ts';
import { LIVE_KINDS, useRevalidateOn } from '../lib/live-refresh.ts';
import { useShell } from '../lib/use-shell.ts';
import { pageMeta } from '../lib/meta.ts';
import { Balances, DealPayouts, EntriesTable, SelfEmployedForm, TopUpForm, TopUpsList, WithdrawForm } from '../features/payments/index.ts';
import { StepUpDialog } from '../features/two-factor/index.ts';
import '../styles/payments.css';

// /profile/finance: the balances, the ledger entries with the balance after each, the top-ups and their form
// (ADR 062), the withdraw form, and the card or wallet a seller's share out of a safe deal waits for (ADR 053).

export async function loader({ context }: Route.LoaderArgs) {
  const [balance, entries, selfEmployed, awaiting, topUps] = await Promise.all([
    context.read('finance.balance'),
    context.read('finance.entries', { query: { limit: 20 } }),
    context.read('finance.selfEmployed'),
    context.read('withdrawals.mine', { query: { status: 'awaiting_details', limit: 20 } }),
    context.read('payments.mine', { query: { purpose: 'top_up', limit: 10 } }),
  ]);
  return {
    balance: balance.ok ? balance.body.result : { available: 0, held: 0, min_withdrawal: 50_000, card_widget: null, top_up: [], saved_method: null },
    entries: entries.ok ? entries.body.result : [],
    next: entries.ok ? entries.body.next : null,
    selfEmployed: selfEmployed.ok ? selfEmployed.body.result : null,
    awaiting: awaiting.ok ? awaiting.body.result : [],
    topUps: topUps.ok ? topUps.body.result : [],
    failed: !balance.ok || !entries.ok,
  };
}

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, 'Финансы'), { name: 'robots', content: 'noindex' }];

export default function FinancePage({ loaderData }: Route.ComponentProps) {
  const { balance, entries, next, selfEmployed, awaiting, topUps, failed } = loaderData;
  const { user } = useShell();
  const revalidator = useRevalidator();
  // An order paid, completed or refunded, a withdrawal decided: the balances and movements change here at once.
  useRevalidateOn(LIVE_KINDS.finance);
  // Back from a provider's page (?top_up=<id>): its webhook may come a moment later, so the page asks again
  // every 2 s while that top-up is pending, for at most a minute and a half.
  const [params] = useSearchParams();
  const returned = params.get('top_up');
  const current = topUps.find((p) => p._id === returned) ?? null;
  const waiting = current?.status === 'pending';
  useEffect(() => {
    if (!waiting) return;
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > 90_000) return clearInterval(timer);
      if (revalidator.state === 'idle') void revalidator.revalidate();
    }, 2_000);
    return () => clearInterval(timer);
  }, [waiting, revalidator]);
  const [more, setMore] = useState<{ entries: FinanceEntry[]; next: string | null; after: string | null }>({ entries: [], next: null, after: null });
  // Pages read with "Показать ещё" belong to the first page they followed: a revalidation starts over.
  const extra = more.after === next ? more : { entries: [], next: null, after: next };

  async function loadMore() {
    const cursor = extra.entries.length ? extra.next : next;
    if (!cursor) return;
    const res = await api.read('finance.entries', { query: { limit: 20, cursor } }, { fresh: true });
    setMore({ entries: [...extra.entries, ...res.result], next: res.next, after: next });
  }

  return (
    <section className="page finance">
      <h1 className="page__title">Финансы</h1>
      {failed && <p className="form-error">Не удалось загрузить данные. Обновите страницу через минуту.</p>}
      <Balances balance={balance} />
      {current && <TopUpNotice status={current.status} />}
      <div className="finance__layout">
        <div className="finance__entries">
          <h2 className="finance__subtitle">Движение средств</h2>
          <EntriesTable entries={[...entries, ...extra.entries]} next={extra.entries.length ? extra.next : next} onMore={loadMore} />
          <TopUpsList topUps={topUps} current={returned} />
        </div>
        <div className="finance__side">
          <TopUpForm methods={balance.top_up} />
          <DealPayouts payouts={awaiting} widget={balance.card_widget} onDone={() => void revalidator.revalidate()} />
          <WithdrawForm balance={balance} emailConfirmed={Boolean(user?.email_confirmed)} onDone={() => void revalidator.revalidate()} />
          {user?.roles.includes('seller') && <SelfEmployedForm initial={selfEmployed} />}
        </div>
      </div>
      <StepUpDialog />
    </section>
  );
}

/** What became of the top-up the customer came back from (ADR 062). */
function TopUpNotice({ status }: { status: string }) {
  if (status === 'pending') return <p className="notice" role="status">Ждём подтверждения оплаты от платёжной системы — баланс обновится сам.</p>;
  if (status === 'succeeded' || status === 'credited') return <p className="notice" role="status">Баланс пополнен.</p>;
  return (
    <p className="form-error" role="status">
      Пополнение не прошло: платёж отклонён или его срок истёк. Попробуйте ещё раз.
    </p>
  );
}
