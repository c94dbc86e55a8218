import { useId, useRef, useState, type FormEvent } from 'react';
import { X } from '../../components/ui/icons.tsx';
import { FiltersDays, FiltersLevel, FiltersPrice, FiltersSub } from './filter-fields.tsx';
import { useFiltersSheet } from './filters-sheet.ts';
import {
  LISTING_FIELDS,
  filtersToSearch,
  hasActiveFilters,
  parseRubles,
  urlKey,
  type FilterField,
  type ListingFilters,
  type ListingKind,
} from './filters.ts';

// The filter panel of a listing: a column beside the results on wide screens, a sheet (a modal dialog) at
// ≤ 900 px. Choices in selects and checkboxes apply at once; typed values (price, tag, search) on "Применить".
// It is also a plain GET form, so without scripts it still works.

interface Sub {
  slug: string;
  title: string;
}

export interface ListingFiltersProps {
  kind: ListingKind;
  filters: ListingFilters;
  subs: readonly Sub[];
  action: string;
  /** `reveal`: «Применить» was pressed, bring the results into view once they are there (issue 15). */
  onApply: (next: ListingFilters, reveal?: boolean) => void;
  /** The sheet is open (small screens). */
  open: boolean;
  onClose: () => void;
  /** "Найдено 5 услуг", shown at the top of the sheet. */
  summary: string;
}

interface Draft {
  q: string;
  tag: string;
  priceFrom: string;
  priceTo: string;
}

const draftOf = (f: ListingFilters): Draft => ({
  q: f.q ?? '',
  tag: f.tag ?? '',
  priceFrom: f.priceFrom ? String(f.priceFrom) : '',
  priceTo: f.priceTo ? String(f.priceTo) : '',
});

export function ListingFiltersPanel({ kind, filters, subs, action, onApply, open, onClose, summary }: ListingFiltersProps) {
  const id = useId();
  const panel = useRef<HTMLDivElement>(null);
  const fields = LISTING_FIELDS[kind];
  const has = (field: FilterField) => fields.includes(field) && (field !== 'sub' || subs.length > 0);

  // Typed values are drafts until applied; they follow the applied filters when those change.
  const key = filtersToSearch(filters, kind);
  const [draft, setDraft] = useState(() => draftOf(filters));
  const [draftKey, setDraftKey] = useState(key);
  if (draftKey !== key) {
    setDraftKey(key);
    setDraft(draftOf(filters));
  }

  const onKeyDown = useFiltersSheet(panel, open, onClose);

  const set = (patch: Partial<ListingFilters>) => onApply({ ...filters, ...patch });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = (s: string) => s.replace(/\s+/g, ' ').trim() || undefined;
    let from = parseRubles(draft.priceFrom) || undefined;
    let to = parseRubles(draft.priceTo) || undefined;
    if (from !== undefined && to !== undefined && from > to) [from, to] = [to, from];
    onApply(
      {
        ...filters,
        ...(has('q') ? { q: text(draft.q) } : {}),
        ...(has('tag') ? { tag: text(draft.tag) } : {}),
        ...(has('priceFrom') ? { priceFrom: from, priceTo: to } : {}),
      },
      true,
    );
    if (open) onClose();
  }

  const reset = () => {
    onApply({ sort: filters.sort });
    if (open) onClose();
  };

  return (
    <>
      {open && <div className="sheet-backdrop" onClick={onClose} aria-hidden />}
      <div
        ref={panel}
        id="listing-filters"
        className={`filters${open ? ' filters--open' : ''}`}
        role={open ? 'dialog' : undefined}
        aria-modal={open || undefined}
        aria-labelledby={`${id}-title`}
        onKeyDown={onKeyDown}
      >
        <div className="filters__head">
          <h2 id={`${id}-title`} className="filters__title">
            Фильтры
          </h2>
          <button type="button" className="filters__close" aria-label="Закрыть фильтры" onClick={onClose}>
            <X size={20} aria-hidden />
          </button>
        </div>
        {open && summary && <p className="filters__summary">{summary}</p>}
        <form method="get" action={action} className="filters__form" onSubmit={submit}>
          {filters.sort && <input type="hidden" name="sort" value={filters.sort} />}
          {has('q') && (
            <label className="filters__field">
              <span className="filters__label">{kind === 'projects' ? 'Поиск по проектам' : 'Поиск'}</span>
              <input
                className="input"
                type="search"
                name={urlKey(kind, 'q')}
                value={draft.q}
                maxLength={200}
                placeholder={kind === 'projects' ? 'Например, лендинг' : 'Например, логотип'}
                onChange={(e) => setDraft({ ...draft, q: e.target.value })}
              />
            </label>
          )}
          {has('sub') && <FiltersSub value={filters.sub} subs={subs} set={set} />}
          {has('priceFrom') && (
            <FiltersPrice
              kind={kind}
              from={draft.priceFrom}
              to={draft.priceTo}
              onChange={(range) => setDraft({ ...draft, ...range })}
            />
          )}
          {has('daysMax') && <FiltersDays value={filters.daysMax} set={set} />}
          {has('level') && <FiltersLevel value={filters.level} set={set} />}
          {has('tag') && (
            <label className="filters__field">
              <span className="filters__label">Тег</span>
              <input
                className="input"
                name="tag"
                value={draft.tag}
                maxLength={40}
                placeholder="Например, figma"
                onChange={(e) => setDraft({ ...draft, tag: e.target.value })}
              />
            </label>
          )}
          {has('online') && (
            <label className="checkbox filters__check">
              <input type="checkbox" name="online" value="1" checked={!!filters.online} onChange={(e) => set({ online: e.target.checked || undefined })} />
              <span>{kind === 'freelancers' ? 'Сейчас в сети' : 'Продавец в сети'}</span>
            </label>
          )}
          <div className="filters__actions">
            <button type="submit" className="btn btn--primary">
              Применить
            </button>
            {hasActiveFilters(filters, kind) && (
              <button type="button" className="btn btn--ghost" onClick={reset}>
                Сбросить
              </button>
            )}
          </div>
        </form>
      </div>
    </>
  );
}
