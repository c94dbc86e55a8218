import { useNavigation, useSearchParams } from 'react-router';
import { GetForm } from './get-form.tsx';
import { AppLink } from './app-link.tsx';
import { TextField } from './form.tsx';

// The controls of an admin list (moderation queues, orders, and the lists to come): the state tabs and the search
// form, both plain links and a GET form that work before hydration.

/**
 * A link to this list with some parameters changed: `null`, or the value `omit` (a tab that is the default), drops
 * a parameter; the page cursor always goes, since another filter starts from the first page.
 */
export function useListLink(base: string, omit?: string) {
  const [params] = useSearchParams();
  return (change: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    next.delete('cursor');
    for (const [k, v] of Object.entries(change)) {
      if (v === null || v === omit) next.delete(k);
      else next.set(k, v);
    }
    const search = next.toString();
    return search ? `?${search}` : base;
  };
}

export function StateTabs({ tabs, current, link }: { tabs: readonly { value: string; label: string }[]; current: string; link: (change: Record<string, string | null>) => string }) {
  return (
    <nav className="tabs" aria-label="Состояние">
      <ul>
        {tabs.map((t) => (
          <li key={t.value}>
            <AppLink to={link({ status: t.value })} className="tabs__link" aria-current={t.value === current ? 'page' : undefined}>
              {t.label}
            </AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The search form of a list: keeps the state tab (`status`, unless it is the default) and offers to reset. */
export function ListSearch({ q, status, placeholder, resetTo }: { q: string; status: string | null; placeholder: string; resetTo: string }) {
  const navigation = useNavigation();
  return (
    <GetForm className="toolbar queue-search" role="search">
      {status !== null && <input type="hidden" name="status" value={status} />}
      <TextField label="Поиск" name="q" defaultValue={q} placeholder={placeholder} key={q} />
      <button type="submit" className="btn btn--primary" disabled={navigation.state !== 'idle'}>
        Найти
      </button>
      {q && (
        <AppLink to={resetTo} className="btn btn--ghost">
          Сбросить
        </AppLink>
      )}
    </GetForm>
  );
}

/** «Дальше»: the list's next keyset page, with its filters kept (`link` from useListLink); nothing on the last. */
export function NextPage({ next, link }: { next: string | null | undefined; link: (change: Record<string, string | null>) => string }) {
  if (!next) return null;
  const here = link({});
  return (
    <p className="pager">
      <AppLink to={`${here}${here.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(next)}`} className="btn btn--ghost" rel="next">
        Дальше
      </AppLink>
    </p>
  );
}
