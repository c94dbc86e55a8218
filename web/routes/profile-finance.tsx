import { useState } from 'react';
import { useRevalidator } from 'react-router';
import type { Route } from './+types/profile-finance';
import type { FinanceEntry } from '#contract/payments';
import { api } from '../lib/api.ts';
import { LIVE_KINDS, useRevalidateOn } from '../lib/live-refresh.ts';
import { useShell } from '../lib/use-shell.ts';
import { pageMeta } from '../lib/meta.ts';
import { Balances, DealPayouts, EntriesTable, SelfEmployedForm, WithdrawForm } from '../features/payments/index.ts';
import { StepUpDialog } from '../features/two-factor/index.ts';
import '../styles/payments.css';

// /profile/finance: the balances, the ledger entries with the balance after each, the withdraw form, and the card or
// wallet a seller's share out of a safe deal waits for (ADR 053).

export async function loader({ context }: Route.LoaderArgs) {
  const [balance, entries, selfEmployed, awaiting] = await Promise.all([
    context.read('finance.balance'),
    context.read('finance.entries', { query: { limit: 20 } }),
    context.read('finance.selfEmployed'),
    context.read('withdrawals.mine', { query: { status: 'awaiting_details', limit: 20 } }),
  ]);
  return {
    balance: balance.ok ? balance.body.result : { available: 0, held: 0, min_withdrawal: 50_000, card_widget: null, saved_method: null },
    entries: entries.ok ? entries.body.result : [],
    next: entries.ok ? entries.body.next : null,
    selfEmployed: selfEmployed.ok ? selfEmployed.body.result : null,
    awaiting: awaiting.ok ? awaiting.body.result : [],
    failed: !balance.ok || !entries.ok,
  };
}

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, 'Финансы'), { name: 'robots', content: 'noindex' }];

export default function FinancePage({ loaderData }: Route.ComponentProps) {
  const { balance, entries, next, selfEmployed, awaiting, failed } = loaderData;
  const { user } = useShell();
  const revalidator = useRevalidator();
  // An order paid, completed or refunded, a withdrawal decided: the balances and movements change here at once.
  useRevalidateOn(LIVE_KINDS.finance);
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
      <div className="finance__layout">
        <div className="finance__entries">
          <h2 className="finance__subtitle">Движение средств</h2>
          <EntriesTable entries={[...entries, ...extra.entries]} next={extra.entries.length ? extra.next : next} onMore={loadMore} />
        </div>
        <div className="finance__side">
          <DealPayouts payouts={awaiting} widget={balance.card_widget} onDone={() => void revalidator.revalidate()} />
          <WithdrawForm balance={balance} emailConfirmed={Boolean(user?.email_confirmed)} onDone={() => void revalidator.revalidate()} />
          {user?.roles.includes('seller') && <SelfEmployedForm initial={selfEmployed} />}
        </div>
      </div>
      <StepUpDialog />
    </section>
  );
}
