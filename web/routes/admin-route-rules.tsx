import { useRevalidator } from 'react-router';
import type { Route } from './+types/admin-route-rules';
import { ROUTE_RULE_KINDS, type RouteRuleKind } from '#contract/admin';
import { pageMeta } from '../lib/meta.ts';
import { ListSearch, NextPage, StateTabs, useListLink } from '../components/ui/list-controls.tsx';
import { RouteRuleForm, RouteRulesTable, RULE_KIND_LABELS } from '../features/admin/index.ts';
import '../styles/payments.css';
import '../styles/admin.css';

// /admin/route-rules: redirects and closed paths (ADR 036), filtered by kind (?status=) and words (?q=), keyset pages.

const TABS = [{ value: 'all', label: 'Все' }, ...ROUTE_RULE_KINDS.map((k) => ({ value: k, label: RULE_KIND_LABELS[k] }))];

export async function loader({ context, url }: Route.LoaderArgs) {
  const status = url.searchParams.get('status');
  const kind = ROUTE_RULE_KINDS.find((k) => k === status);
  const q = url.searchParams.get('q')?.trim() ?? '';
  const cursor = url.searchParams.get('cursor');
  const res = await context.read('admin.routeRules.list', {
    query: { limit: 50, ...(kind ? { kind } : {}), ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) },
  });
  return { rules: res.ok ? res.body.result : [], next: res.ok ? res.body.next : null, failed: !res.ok, kind: (kind ?? 'all') as RouteRuleKind | 'all', q };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Правила адресов');

export default function AdminRouteRulesPage({ loaderData }: Route.ComponentProps) {
  const { rules, next, failed, kind, q } = loaderData;
  const revalidator = useRevalidator();
  const link = useListLink('/admin/route-rules', 'all');
  const refresh = () => void revalidator.revalidate();
  return (
    <section className="page">
      <h1 className="page__title">Правила адресов</h1>
      <p className="field__hint">
        Перенаправление ведёт посетителя со старого адреса на новый (внутри сайта или на внешний https://…); закрытый адрес
        отвечает страницей «Не найдено». Правила действуют сразу на всех серверах. Адреса входа и админки занять нельзя.
      </p>
      <RouteRuleForm editing={null} onSaved={refresh} />
      <StateTabs tabs={TABS} current={kind} link={link} />
      <ListSearch q={q} status={kind === 'all' ? null : kind} placeholder="Часть адреса" resetTo={link({ q: null })} />
      {failed ? <p className="empty-state">Не удалось загрузить правила. Проверьте фильтры.</p> : <RouteRulesTable rules={rules} onChanged={refresh} />}
      <NextPage next={next} link={link} />
    </section>
  );
}
