import { redirect, useLoaderData } from 'react-router';
import type { Route } from './+types/test';
import { pageMeta } from '../lib/meta.ts';
import { useSocketTransport } from '../lib/socket.ts';
import { useShell } from '../lib/use-shell.ts';
import { useCurrency } from '../lib/currency-store.ts';
import { ratesReady } from '../lib/currency.ts';
import { formatRubles } from '#contract/money-format';

// SPEC §2: /test exists only with the public development flag; otherwise it redirects to /.
export function loader({ context }: Route.LoaderArgs) {
  if (!context.config.dev) throw redirect('/');
  return { buildId: context.config.buildId };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Диагностика');

export default function TestPage() {
  const { buildId } = useLoaderData<typeof loader>();
  const { user, rates } = useShell();
  const transport = useSocketTransport();
  const currency = useCurrency();
  return (
    <section className="page">
      <h1 className="page__title">Диагностика</h1>
      <dl className="facts">
        <dt>Сборка</dt>
        <dd data-testid="build-id">{buildId}</dd>
        <dt>Пользователь</dt>
        <dd>{user ? `${user.name} ${user.surname} (${user.active_role})` : 'гость'}</dd>
        <dt>Транспорт сокета</dt>
        <dd data-testid="socket-transport">{transport}</dd>
        <dt>Валюта</dt>
        <dd>{currency}</dd>
        <dt>Курсы</dt>
        <dd>
          {ratesReady(rates)
            ? `USDT ${formatRubles(Math.round(rates.USDT * 100))}, BTC ${formatRubles(Math.round(rates.BTC * 100))}`
            : 'нет данных'}
        </dd>
      </dl>
    </section>
  );
}
