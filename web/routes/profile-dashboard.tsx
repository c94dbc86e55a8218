import type { Route } from './+types/profile-dashboard';
import { DASHBOARD_PERIODS, DEFAULT_DASHBOARD_PERIOD, type DashboardPeriod } from '#contract/dashboard';
import { pageMeta } from '../lib/meta.ts';
import { DashboardView, PeriodSwitch } from '../features/dashboard/index.ts';
import '../styles/dashboard.css';

// /profile/dashboard, the profile's home page (/profile opens it): the figures of the person's active role over
// the chosen period (?period=7|30|90|365).

const isPeriod = (v: string | null): v is DashboardPeriod => DASHBOARD_PERIODS.some((p) => p === v);

export async function loader({ context, url }: Route.LoaderArgs) {
  const asked = url.searchParams.get('period');
  const period = isPeriod(asked) ? asked : DEFAULT_DASHBOARD_PERIOD;
  const role = context.user?.active_role === 'seller' ? 'seller' : 'customer';
  const res = await context.read('dashboard.mine', { query: { period, role } });
  return { period, role, data: res.ok ? res.body.result : null } as const;
}

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, 'Сводка'), { name: 'robots', content: 'noindex' }];

export default function DashboardPage({ loaderData }: Route.ComponentProps) {
  const { period, role, data } = loaderData;
  return (
    <section className="page dash">
      <div className="dash__head">
        <h1 className="page__title">Сводка</h1>
        <span className="badge" data-testid="dash-role">
          {role === 'seller' ? 'Продавец' : 'Покупатель'}
        </span>
      </div>
      <PeriodSwitch period={period} />
      {data ? <DashboardView data={data} period={period} /> : <p className="form-error">Не удалось загрузить данные. Обновите страницу через минуту.</p>}
    </section>
  );
}
