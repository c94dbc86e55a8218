import type { Route } from './+types/admin-index';
import { OVERVIEW_PERIODS, type OverviewPeriod } from '#contract/admin';
import { pageMeta } from '../lib/meta.ts';
import { OverviewView } from '../features/admin/index.ts';
import '../styles/dashboard.css';
import '../styles/admin.css';

// /admin: the admin home, the marketplace at a glance over ?period=7|30|90|365 days (ADR 036: SPEC lists /admin as a
// bare path; the issue asks for an overview, and the side menu still leads to every list).

const isPeriod = (v: string | null): v is OverviewPeriod => OVERVIEW_PERIODS.some((p) => p === v);

export async function loader({ context, url }: Route.LoaderArgs) {
  const asked = url.searchParams.get('period');
  const period: OverviewPeriod = isPeriod(asked) ? asked : '30';
  const res = await context.read('admin.overview', { query: { period } });
  return { period, data: res.ok ? res.body.result : null };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Обзор');

export default function AdminHome({ loaderData }: Route.ComponentProps) {
  const { period, data } = loaderData;
  return (
    <section className="page dash">
      <h1 className="page__title">Обзор</h1>
      {data ? <OverviewView data={data} period={period} /> : <p className="form-error">Не удалось загрузить данные. Обновите страницу через минуту.</p>}
    </section>
  );
}
