import { useCallback, useState } from 'react';
import { useLocation } from 'react-router';
import { SlidersHorizontal } from '../../components/ui/icons.tsx';
import { useShell } from '../../lib/use-shell.ts';
import { Breadcrumbs, type Crumb } from '../../components/ui/breadcrumbs.tsx';
import { ListingFiltersPanel } from './listing-filters.tsx';
import { JsonLd } from './json-ld.tsx';
import { PostProjectCta } from './post-project-cta.tsx';
import { breadcrumbLd } from './seo.ts';
import { SORT_OPTIONS, filtersToSearch, hasActiveFilters, type ListingKind } from './filters.ts';
import { filterChips } from './filter-chips.ts';
import type { ListingData } from './listing-data.ts';
import {
  Items,
  ListingCategories,
  ListingEmpty,
  ListingError,
  ListingMore,
  ListingStatus,
  Skeletons,
} from './listing-results.tsx';
import { foundText } from './texts.ts';
import { RESULTS_ID, useListing } from './use-listing.ts';
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
  /** The invitation to post a project between the heading and the list: its text (a deferred part's props reach the
   * browser as JSON, no React element). */
  postProject?: string;
}

const BASE: Record<ListingKind, string> = { services: '/services', projects: '/projects', freelancers: '/freelancers' };
const SKELETONS = 6;

/** A catalogue listing: categories, filters, sort, the count, the cards and "Показать ещё". */
export function ListingPage({ kind, data, title, crumb, empty, postProject }: ListingPageProps) {
  const { catalogue, config } = useShell();
  const location = useLocation();
  const [sheetOpen, setSheetOpen] = useState(false);
  const closeSheet = useCallback(() => setSheetOpen(false), []);
  const { list, filters, loading, loadingMore, apply, loadMore } = useListing(kind, data);

  const active = catalogue.find((c) => c.slug === data.category?.slug);
  const subs = active?.subs ?? [];
  const base = BASE[kind];
  const allPath = `${base}/all`;

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
  const searched = data.filters.q;
  // The heading says what was searched (issue 25), and where.
  const heading = searched
    ? `Результаты по запросу «${searched}»${active ? ` в категории «${active.title}»` : ''}`
    : (active?.title ?? title);

  return (
    <section className="listing">
      <Breadcrumbs items={crumbs} />
      <JsonLd data={ld} />
      <div className="listing__head">
        <h1 className="page__title">{heading}</h1>
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
      {postProject && <PostProjectCta text={postProject} />}
      <div className="listing__body">
        <aside className="listing__aside">
          <ListingCategories base={base} allPath={allPath} carry={carry} active={active?.slug} />
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
          <ListingStatus
            kind={kind}
            data={data}
            filters={filters}
            loading={loading}
            summary={summary}
            chips={chips}
            apply={apply}
            pathname={location.pathname}
          />
          {loading && list.items.length === 0 ? (
            <Skeletons kind={kind} n={SKELETONS} />
          ) : loading ? (
            // The current cards stay in place, dimmed, until the new ones arrive: nothing jumps.
            <div className="listing__stale" inert>
              <Items kind={kind} items={list.items} />
            </div>
          ) : data.error ? (
            <ListingError error={data.error} />
          ) : list.items.length === 0 ? (
            <ListingEmpty
              filtered={filtered}
              category={active?.title}
              searched={searched}
              allPath={allPath}
              empty={empty}
              reset={() => apply({ sort: filters.sort })}
            />
          ) : (
            <Items kind={kind} items={list.items} />
          )}
          {!loading && loadingMore && <Skeletons kind={kind} n={3} />}
          {!loading && !data.error && list.next && (
            <ListingMore
              kind={kind}
              shown={list.items.length}
              total={list.total}
              exact={list.exact}
              busy={loadingMore}
              onMore={loadMore}
            />
          )}
        </div>
      </div>
    </section>
  );
}
