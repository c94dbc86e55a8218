import { useEffect } from 'react';
import { useRevalidator } from 'react-router';
import type { Route } from './+types/profile-saved';
import type { Project, PublicUser, ServiceCard } from '#contract/catalog';
import { pageMeta } from '../lib/meta.ts';
import { useShell } from '../lib/use-shell.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { FreelancerCardView, ProjectCardView, ServiceCardView } from '../features/catalog/index.ts';
import { favorites, type FavoriteType, useFavorites } from '../features/favorites/index.ts';

// /profile/saved: the person's favourites in three tabs (SPEC §3 favourite types).

const TABS = [
  { tab: 'services', type: 'service', label: 'Услуги' },
  { tab: 'projects', type: 'project', label: 'Проекты' },
  { tab: 'freelancers', type: 'freelancer', label: 'Фрилансеры' },
] as const satisfies readonly { tab: string; type: FavoriteType; label: string }[];

type Tab = (typeof TABS)[number];

const EMPTY: Record<FavoriteType, { text: string; to: string; label: string }> = {
  service: {
    text: 'Сохраняйте понравившиеся услуги: нажмите на сердечко в карточке, и услуга появится здесь.',
    to: '/services/all',
    label: 'Смотреть услуги',
  },
  project: {
    text: 'Отмечайте интересные проекты сердечком, чтобы вернуться к ним и откликнуться позже.',
    to: '/projects',
    label: 'Смотреть проекты',
  },
  freelancer: {
    text: 'Добавляйте в избранное исполнителей, с которыми хотите работать, — они будут под рукой.',
    to: '/freelancers/all',
    label: 'Смотреть фрилансеров',
  },
};

const tabOf = (url: URL): Tab => TABS.find((t) => t.tab === url.searchParams.get('tab')) ?? TABS[0];

export async function loader({ context, url }: Route.LoaderArgs) {
  const tab = tabOf(url);
  const res = await context.read('favorites.items', { query: { type: tab.type } });
  const items: (ServiceCard | Project | PublicUser)[] = res.ok ? res.body.result : [];
  return { type: tab.type, items, error: res.ok ? null : 'Не удалось загрузить избранное. Обновите страницу через минуту.' };
}

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, 'Избранное'), { name: 'robots', content: 'noindex' }];

export default function SavedPage({ loaderData }: Route.ComponentProps) {
  const { type, items, error } = loaderData;
  const { catalogue } = useShell();
  const list = useFavorites();
  const revalidator = useRevalidator();

  // A list kept in this browser before signing in was just merged into the account: show the merged one.
  useEffect(() => favorites.onSynced((merged) => merged && void revalidator.revalidate()), [revalidator]);

  const empty = EMPTY[type];
  return (
    <section className="page saved-page">
      <h1 className="page__title">Избранное</h1>
      <nav className="tabs" aria-label="Разделы избранного">
        <ul>
          {TABS.map((t) => {
            const n = list.filter((f) => f.type === t.type).length;
            return (
              <li key={t.tab}>
                <AppLink to={`?tab=${t.tab}`} className="tabs__link" aria-current={t.type === type ? 'page' : undefined} preventScrollReset>
                  {t.label}
                  {n > 0 && <span className="tabs__count">{n}</span>}
                </AppLink>
              </li>
            );
          })}
        </ul>
      </nav>
      <h2 className="visually-hidden">{TABS.find((t) => t.type === type)!.label}</h2>
      {error ? (
        <div className="empty-state">
          <p>{error}</p>
          <button type="button" className="btn btn--primary" onClick={() => void revalidator.revalidate()}>
            Обновить
          </button>
        </div>
      ) : items.length === 0 ? (
        <div className="empty-state">
          <p className="empty-state__title">Здесь пока пусто</p>
          <p>{empty.text}</p>
          <AppLink to={empty.to} className="btn btn--primary">
            {empty.label}
          </AppLink>
        </div>
      ) : type === 'service' ? (
        <ul className="card-grid">
          {(items as ServiceCard[]).map((s) => (
            <li key={s._id}>
              <ServiceCardView service={s} catalogue={catalogue} />
            </li>
          ))}
        </ul>
      ) : type === 'project' ? (
        <ul className="p-list">
          {(items as Project[]).map((p) => (
            <li key={p._id}>
              <ProjectCardView project={p} catalogue={catalogue} />
            </li>
          ))}
        </ul>
      ) : (
        <ul className="card-grid card-grid--people">
          {(items as PublicUser[]).map((u) => (
            <li key={u._id}>
              <FreelancerCardView person={u} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
