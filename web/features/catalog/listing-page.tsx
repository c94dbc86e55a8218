import { useShell } from '../shell/use-shell.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Breadcrumbs } from '../../components/ui/breadcrumbs.tsx';
import { useKeptState } from '../../lib/kept-state.ts';

export interface ListingPageProps {
  /** SPEC's cache key: the page's state survives visits to other pages. */
  cacheKey: 'services' | 'projects' | 'freelancers';
  basePath: '/services' | '/projects' | '/freelancers';
  title: string;
  activeSlug?: string;
  sorts: readonly (readonly [string, string])[];
  empty: string;
}

/** The frame of a catalogue listing: category tree, sort and the list (filled by the catalog issue). */
export function ListingPage({ cacheKey, basePath, title, activeSlug, sorts, empty }: ListingPageProps) {
  const { catalogue } = useShell();
  const [sort, setSort] = useKeptState(`${cacheKey}:sort`, sorts[0]![0]);
  const active = catalogue.find((c) => c.slug === activeSlug);
  const allPath = `${basePath}/all`;

  return (
    <section className="listing">
      <Breadcrumbs items={[{ label: 'Главная', to: '/' }, ...(active ? [{ label: title, to: allPath }, { label: active.title }] : [{ label: title }])]} />
      <div className="listing__head">
        <h1 className="page__title">{active?.title ?? title}</h1>
        <label className="listing__sort">
          <span>Сортировка</span>
          <select value={sort} onChange={(e) => setSort(e.target.value)} name="sort">
            {sorts.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="listing__body">
        <nav aria-label="Категории" className="listing__categories">
          <ul>
            <li>
              <AppLink to={allPath} preventScrollReset aria-current={!active ? 'page' : undefined}>
                Все категории
              </AppLink>
            </li>
            {catalogue.map((c) => (
              <li key={c._id}>
                <AppLink to={`${basePath}/${c.slug}`} preventScrollReset aria-current={c.slug === activeSlug ? 'page' : undefined}>
                  {c.title}
                </AppLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="listing__results">
          <p className="empty-state">{empty}</p>
        </div>
      </div>
    </section>
  );
}
