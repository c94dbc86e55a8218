import { useRef } from 'react';
import { useRevalidator } from 'react-router';
import { X } from '../../components/ui/icons.tsx';
import type { Project, PublicUser, ServiceCard } from '#contract/catalog';
import { useShell } from '../../lib/use-shell.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { useRevealCurrent } from '../../lib/reveal-current.ts';
import { FreelancerCardView, ProjectCardView, ServiceCardView, SkeletonCard } from './cards.tsx';
import { filtersToSearch, type ListingFilters, type ListingKind } from './filters.ts';
import type { FilterChip } from './filter-chips.ts';
import type { ListingData } from './listing-data.ts';
import { totalText } from './texts.ts';
import type { ListingItem } from './types.ts';

// The parts of a listing page around its cards: the category strip, the status line above the results, what is
// shown when there are none, the skeletons while they load and the cards themselves.

/** What the partial matches of a search are called (ADR 044). */
const SIMILAR: Record<ListingKind, string> = { services: 'похожие услуги', projects: 'похожие проекты', freelancers: 'похожих исполнителей' };
/** A project's title is at most this long (projectInputSchema). */
const PROJECT_TITLE_MAX = 120;

/** The project form with a search as its title: what was not found can be asked for (issue 25). */
export const projectFromSearch = (q: string) =>
  `/profile/items/create?${new URLSearchParams({ kind: 'project', title: q.slice(0, PROJECT_TITLE_MAX) })}`;
const variantOf = (kind: ListingKind) => (kind === 'services' ? 'service' : kind === 'projects' ? 'project' : 'freelancer');

interface ListingCategoriesProps {
  base: string;
  allPath: string;
  /** The other filters, kept when moving to another category. */
  carry: string;
  active?: string;
}

export function ListingCategories({ base, allPath, carry, active }: ListingCategoriesProps) {
  const { catalogue } = useShell();
  const categoryStrip = useRef<HTMLUListElement>(null);
  useRevealCurrent(categoryStrip, active);
  return (
    <nav aria-label="Категории" className="listing__categories">
      <ul ref={categoryStrip}>
        <li>
          <AppLink to={`${allPath}${carry}`} className="listing__cat" preventScrollReset aria-current={!active ? 'page' : undefined}>
            Все категории
          </AppLink>
        </li>
        {catalogue.map((c) => (
          <li key={c.slug}>
            <AppLink to={`${base}/${c.slug}${carry}`} className="listing__cat" preventScrollReset aria-current={c.slug === active ? 'page' : undefined}>
              {c.title}
            </AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

interface ListingStatusProps {
  kind: ListingKind;
  data: ListingData;
  filters: ListingFilters;
  loading: boolean;
  summary: string;
  chips: FilterChip[];
  apply: (next: ListingFilters) => void;
  pathname: string;
}

export function ListingStatus({ kind, data, filters, loading, summary, chips, apply, pathname }: ListingStatusProps) {
  const searched = data.filters.q;
  return (
    <div className="listing__status">
      <p className="listing__count" role="status">
        {loading ? 'Загружаем…' : summary}
      </p>
      {!loading && data.corrected && filters.q && (
        // Server-rendered: no script is needed to read or follow it (ADR 028).
        <p className="listing__corrected">
          Возможно, вы искали{' '}
          <AppLink to={`${pathname}${filtersToSearch({ ...filters, q: data.corrected }, kind)}`} className="listing__corrected-link">
            {data.corrected}
          </AppLink>
          . По запросу «{filters.q}» ничего не нашлось, показываем результаты по исправленному.
        </p>
      )}
      {!loading && data.partial && searched && (
        <p className="listing__corrected">
          Ничего не нашлось по всем словам запроса «{searched}». Показываем {SIMILAR[kind]}.
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
  );
}

interface ListingEmptyProps {
  /** Some filters are on. */
  filtered: boolean;
  /** The category's title, when the listing is one category's. */
  category?: string;
  searched?: string;
  allPath: string;
  empty: { text: string; action?: { to: string; label: string } };
  reset: () => void;
}

/** The listing has no results: say why and offer a way on. */
export function ListingEmpty({ filtered, category, searched, allPath, empty, reset }: ListingEmptyProps) {
  return (
    <div className="empty-state">
      {filtered || category !== undefined ? (
        <>
          <p className="empty-state__title">Ничего не нашлось</p>
          <p>
            {filtered
              ? 'Попробуйте убрать часть фильтров или изменить запрос.'
              : `В категории «${category}» пока пусто — загляните в соседние категории.`}
          </p>
          {searched && (
            // Nothing to order: the customer may describe it instead (issue 25).
            <p>
              Не нашли подходящего?{' '}
              <AppLink to={projectFromSearch(searched)} className="listing__corrected-link">
                Разместите проект
              </AppLink>{' '}
              — исполнители сами предложат цену и сроки.
            </p>
          )}
          {filtered ? (
            <button type="button" className="btn btn--primary" onClick={reset}>
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
  );
}

/** The listing could not be loaded: say so and offer to try again. */
export function ListingError({ error }: { error: string }) {
  const revalidator = useRevalidator();
  return (
    <div className="empty-state">
      <p>{error}</p>
      <button type="button" className="btn btn--primary" onClick={() => void revalidator.revalidate()}>
        Обновить
      </button>
    </div>
  );
}

interface ListingMoreProps {
  kind: ListingKind;
  /** How many cards are shown. */
  shown: number;
  total: number;
  exact: boolean;
  busy: boolean;
  onMore: () => Promise<void>;
}

/** "Показать ещё" and how much of the listing is shown. */
export function ListingMore({ kind, shown, total, exact, busy, onMore }: ListingMoreProps) {
  return (
    <div className="listing__more">
      <button type="button" className="btn btn--ghost" onClick={() => void onMore()} disabled={busy}>
        {busy ? 'Загружаем…' : 'Показать ещё'}
      </button>
      <p className="listing__shown">
        Показано {shown.toLocaleString('ru-RU')} из {totalText(kind, total, exact)}
      </p>
    </div>
  );
}

export function Skeletons({ kind, n }: { kind: ListingKind; n: number }) {
  const variant = variantOf(kind);
  return (
    <div className={kind === 'projects' ? 'p-list' : kind === 'services' ? 'card-grid' : 'card-grid card-grid--people'}>
      {Array.from({ length: n }, (_, i) => (
        <SkeletonCard key={i} variant={variant} />
      ))}
    </div>
  );
}

export function Items({ kind, items }: { kind: ListingKind; items: ListingItem[] }) {
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
