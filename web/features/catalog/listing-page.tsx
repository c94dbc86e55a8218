import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useNavigation, useRevalidator } from 'react-router';
import { SlidersHorizontal, X } from '../../components/ui/icons.tsx';
import type { Project, PublicUser, ServiceCard } from '#contract/catalog';
import { useShell } from '../../lib/use-shell.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Breadcrumbs, type Crumb } from '../../components/ui/breadcrumbs.tsx';
import { toast } from '../../lib/toast-store.ts';
import { useRevealCurrent } from '../../lib/reveal-current.ts';
import { FreelancerCardView, ProjectCardView, ServiceCardView, SkeletonCard } from './cards.tsx';
import { ListingFiltersPanel } from './listing-filters.tsx';
import { JsonLd } from './json-ld.tsx';
import { breadcrumbLd } from './seo.ts';
import {
  SORT_OPTIONS,
  filtersToSearch,
  hasActiveFilters,
  type ListingFilters,
  type ListingKind,
} from './filters.ts';
import { filterChips } from './filter-chips.ts';
import { fetchListing, isListingPath, listingStore, type ListingData } from './listing-data.ts';
import { foundText, totalText } from './texts.ts';
import type { ListingItem } from './types.ts';
import { trimEnd } from '#contract/text';

export interface ListingPageProps {
  /** The listing, also SPEC's cache key: its state survives visits to other pages. */
  kind: ListingKind;
  data: ListingData;
  /** The heading of the listing without a category. */
  title: string;
  /** Breadcrumb of the listing itself ("Все услуги", "Биржа проектов"). */
  crumb: string;
  /** What to say and offer when the listing has nothing at all. */
  empty: { text: string; action?: { to: string; label: string } };
}

/** The results' anchor: the filters' form (with or without scripts) brings them into view once applied (issue 15). */
const RESULTS_ID = 'listing-results';

const BASE: Record<ListingKind, string> = { services: '/services', projects: '/projects', freelancers: '/freelancers' };
const SKELETONS = 6;
const variantOf = (kind: ListingKind) => (kind === 'services' ? 'service' : kind === 'projects' ? 'project' : 'freelancer');

/** A catalogue listing: categories, filters, sort, the count, the cards and "Показать ещё". */
export function ListingPage({ kind, data, title, crumb, empty }: ListingPageProps) {
  const { catalogue, config } = useShell();
  const navigate = useNavigate();
  const location = useLocation();
  const navigation = useNavigation();
  const revalidator = useRevalidator();

  // The loaded pages: the loader's first page (or the kept ones), then what "Показать ещё" adds.
  const [list, setList] = useState(() => ({ items: data.items, total: data.total, exact: data.exact, next: data.next }));
  const [pending, setPending] = useState<ListingFilters | null>(null);
  const [seen, setSeen] = useState(data);
  if (seen !== data) {
    setSeen(data);
    setList({ items: data.items, total: data.total, exact: data.exact, next: data.next });
    setPending(null);
  }
  const [loadingMore, setLoadingMore] = useState(false);
  const [sheetOpen, setSheetOpen] = useState(false);
  const categoryStrip = useRef<HTMLUListElement>(null);
  const closeSheet = useCallback(() => setSheetOpen(false), []);

  const filters = pending ?? data.filters;
  const active = catalogue.find((c) => c.slug === data.category?.slug);
  useRevealCurrent(categoryStrip, active?.slug);
  const subs = active?.subs ?? [];
  const base = BASE[kind];
  const allPath = `${base}/all`;
  const loading =
    (navigation.state === 'loading' && !!navigation.location && isListingPath(kind, navigation.location.pathname)) ||
    (pending !== null && navigation.state !== 'idle');

  // Kept state: the listing as it is now, and where the page is scrolled, for the next visit.
  const live = useRef(true);
  useLayoutEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  useEffect(() => {
    if (data.restored) window.scrollTo(0, data.restored.scrollY);
  }, [data]);
  useEffect(() => {
    const { restored: _restored, ...rest } = data;
    listingStore.set(kind, { ...rest, ...list, scrollY: window.scrollY, stale: false });
  }, [kind, data, list]);
  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        if (live.current) listingStore.patch(kind, data.path, { scrollY: window.scrollY });
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [kind, data.path]);

  // «Применить» brings the results into view once they have come (issue 15: at 1280×800 the filters reach below the
  // fold). After React Router's scroll restoration, which keeps the listing's position.
  const reveal = useRef(false);
  useEffect(() => {
    if (!reveal.current) return;
    reveal.current = false;
    const results = document.getElementById(RESULTS_ID);
    const top = results?.getBoundingClientRect().top ?? 0;
    if (top < 0 || top > window.innerHeight / 2) results?.scrollIntoView({ block: 'start' });
  }, [data]);

  /** New filters: remembered at once (kept state), then loaded through the address (shareable, crawlable). */
  function apply(next: ListingFilters, revealResults = false) {
    reveal.current = revealResults;
    const search = filtersToSearch(next, kind);
    const { restored: _restored, ...rest } = data;
    listingStore.set(kind, { ...rest, ...list, filters: next, search, scrollY: window.scrollY, stale: true });
    setPending(next);
    void navigate({ pathname: location.pathname, search }, { replace: true, preventScrollReset: true });
  }

  // The listing on screen now, for answers that arrive after the filters changed.
  const shown = useRef(data);
  useEffect(() => {
    shown.current = data;
  }, [data]);

  async function loadMore() {
    if (!list.next || loadingMore) return;
    const origin = data;
    setLoadingMore(true);
    const page = await fetchListing(kind, data.category?.slug, data.filters, list.next);
    setLoadingMore(false);
    if (shown.current !== origin) return;
    if (page.error) {
      toast(page.error);
      return;
    }
    setList((current) => ({
      items: [...current.items, ...page.items.filter((x) => !current.items.some((y) => y._id === x._id))],
      total: page.total || current.total,
      exact: page.total ? page.exact : current.exact,
      next: page.next,
    }));
  }

  const crumbs: Crumb[] = [
    { label: 'Главная', to: '/' },
    ...(active ? [{ label: crumb, to: allPath }, { label: active.title }] : [{ label: crumb }]),
  ];
  const ld = breadcrumbLd(
    trimEnd(config.siteUrl, '/'),
    crumbs.map((c, i) => ({ name: c.label, path: c.to ?? (i === crumbs.length - 1 ? location.pathname : undefined) })),
  );
  // Moving to another category keeps the other filters (a sub-category belongs to its category).
  const carry = filtersToSearch({ ...filters, sub: undefined }, kind);
  const chips = filterChips(filters, kind, subs);
  const filtered = hasActiveFilters(filters, kind);
  const summary = data.error ? '' : foundText(kind, list.total, list.exact);

  return (
    <section className="listing">
      <Breadcrumbs items={crumbs} />
      <JsonLd data={ld} />
      <div className="listing__head">
        <h1 className="page__title">{active?.title ?? title}</h1>
        <div className="listing__tools">
          <button
            type="button"
            className="btn btn--ghost listing__filters-toggle"
            aria-expanded={sheetOpen}
            aria-controls="listing-filters"
            onClick={() => setSheetOpen(true)}
          >
            <SlidersHorizontal size={18} aria-hidden /> Фильтры{chips.length > 0 && <span className="listing__badge">{chips.length}</span>}
          </button>
          <label className="listing__sort">
            <span>Сортировка</span>
            <select value={filters.sort} onChange={(e) => apply({ ...filters, sort: e.target.value })} name="sort">
              {SORT_OPTIONS[kind].map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      <div className="listing__body">
        <aside className="listing__aside">
          <nav aria-label="Категории" className="listing__categories">
            <ul ref={categoryStrip}>
              <li>
                <AppLink to={`${allPath}${carry}`} className="listing__cat" preventScrollReset aria-current={!active ? 'page' : undefined}>
                  Все категории
                </AppLink>
              </li>
              {catalogue.map((c) => (
                <li key={c.slug}>
                  <AppLink to={`${base}/${c.slug}${carry}`} className="listing__cat" preventScrollReset aria-current={c.slug === active?.slug ? 'page' : undefined}>
                    {c.title}
                  </AppLink>
                </li>
              ))}
            </ul>
          </nav>
          <ListingFiltersPanel
            kind={kind}
            filters={filters}
            subs={subs}
            action={`${location.pathname}#${RESULTS_ID}`}
            onApply={apply}
            open={sheetOpen}
            onClose={closeSheet}
            summary={summary}
          />
        </aside>
        <div className="listing__results" id={RESULTS_ID} aria-busy={loading || loadingMore}>
          <h2 className="visually-hidden">Результаты</h2>
          <div className="listing__status">
            <p className="listing__count" role="status">
              {loading ? 'Загружаем…' : summary}
            </p>
            {!loading && data.corrected && filters.q && (
              // Server-rendered: no script is needed to read or follow it (ADR 028).
              <p className="listing__corrected">
                Возможно, вы искали{' '}
                <AppLink to={`${location.pathname}${filtersToSearch({ ...filters, q: data.corrected }, kind)}`} className="listing__corrected-link">
                  {data.corrected}
                </AppLink>
                . По запросу «{filters.q}» ничего не нашлось, показываем результаты по исправленному.
              </p>
            )}
            {chips.length > 0 && (
              <ul className="chips" aria-label="Выбранные фильтры">
                {chips.map((chip) => (
                  <li key={chip.key}>
                    <button type="button" className="chip" onClick={() => apply(chip.without)} aria-label={`Убрать фильтр ${chip.label}`}>
                      {chip.label} <X size={14} aria-hidden />
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
          {loading && list.items.length === 0 ? (
            <Skeletons kind={kind} n={SKELETONS} />
          ) : loading ? (
            // The current cards stay in place, dimmed, until the new ones arrive: nothing jumps.
            <div className="listing__stale" inert>
              <Items kind={kind} items={list.items} />
            </div>
          ) : data.error ? (
            <div className="empty-state">
              <p>{data.error}</p>
              <button type="button" className="btn btn--primary" onClick={() => void revalidator.revalidate()}>
                Обновить
              </button>
            </div>
          ) : list.items.length === 0 ? (
            <div className="empty-state">
              {filtered || active ? (
                <>
                  <p className="empty-state__title">Ничего не нашлось</p>
                  <p>
                    {filtered
                      ? 'Попробуйте убрать часть фильтров или изменить запрос.'
                      : `В категории «${active!.title}» пока пусто — загляните в соседние категории.`}
                  </p>
                  {filtered ? (
                    <button type="button" className="btn btn--primary" onClick={() => apply({ sort: filters.sort })}>
                      Сбросить фильтры
                    </button>
                  ) : (
                    <AppLink to={allPath} className="btn btn--primary">
                      Все категории
                    </AppLink>
                  )}
                </>
              ) : (
                <>
                  <p>{empty.text}</p>
                  {empty.action && (
                    <AppLink to={empty.action.to} className="btn btn--primary">
                      {empty.action.label}
                    </AppLink>
                  )}
                </>
              )}
            </div>
          ) : (
            <Items kind={kind} items={list.items} />
          )}
          {!loading && loadingMore && <Skeletons kind={kind} n={3} />}
          {!loading && !data.error && list.next && (
            <div className="listing__more">
              <button type="button" className="btn btn--ghost" onClick={() => void loadMore()} disabled={loadingMore}>
                {loadingMore ? 'Загружаем…' : 'Показать ещё'}
              </button>
              <p className="listing__shown">
                Показано {list.items.length.toLocaleString('ru-RU')} из {totalText(kind, list.total, list.exact)}
              </p>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}

function Skeletons({ kind, n }: { kind: ListingKind; n: number }) {
  const variant = variantOf(kind);
  return (
    <div className={kind === 'projects' ? 'p-list' : kind === 'services' ? 'card-grid' : 'card-grid card-grid--people'}>
      {Array.from({ length: n }, (_, i) => (
        <SkeletonCard key={i} variant={variant} />
      ))}
    </div>
  );
}

function Items({ kind, items }: { kind: ListingKind; items: ListingItem[] }) {
  const { catalogue } = useShell();
  if (kind === 'services') {
    return (
      <ul className="card-grid">
        {(items as ServiceCard[]).map((s, i) => (
          <li key={s._id}>
            <ServiceCardView service={s} catalogue={catalogue} eager={i === 0} />
          </li>
        ))}
      </ul>
    );
  }
  if (kind === 'projects') {
    return (
      <ul className="p-list">
        {(items as Project[]).map((p) => (
          <li key={p._id}>
            <ProjectCardView project={p} catalogue={catalogue} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul className="card-grid card-grid--people">
      {(items as PublicUser[]).map((u) => (
        <li key={u._id}>
          <FreelancerCardView person={u} />
        </li>
      ))}
    </ul>
  );
}
