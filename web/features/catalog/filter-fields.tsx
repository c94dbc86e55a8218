import { SELLER_LEVELS, SELLER_LEVEL_TITLES, type SellerLevel } from '#contract/catalog-constants';
import { DELIVERY_OPTIONS } from './filter-chips.ts';
import { urlKey, type ListingFilters, type ListingKind } from './filters.ts';

// The fields of the filter panel with more than one control or a list of choices. Selects apply at once (`set`);
// the price range is a draft until «Применить».

type SetFilters = (patch: Partial<ListingFilters>) => void;

interface FiltersSubProps {
  value?: string;
  subs: readonly { slug: string; title: string }[];
  set: SetFilters;
}

export function FiltersSub({ value, subs, set }: FiltersSubProps) {
  return (
    <label className="filters__field">
      <span className="filters__label">Подкатегория</span>
      <select className="input" name="sub" value={value ?? ''} onChange={(e) => set({ sub: e.target.value || undefined })}>
        <option value="">Все подкатегории</option>
        {subs.map((s) => (
          <option key={s.slug} value={s.slug}>
            {s.title}
          </option>
        ))}
      </select>
    </label>
  );
}

interface FiltersPriceProps {
  kind: ListingKind;
  from: string;
  to: string;
  onChange: (range: { priceFrom?: string; priceTo?: string }) => void;
}

export function FiltersPrice({ kind, from, to, onChange }: FiltersPriceProps) {
  const priceLegend = kind === 'projects' ? 'Бюджет, руб.' : 'Цена, руб.';
  return (
    <fieldset className="filters__field filters__range">
      <legend className="filters__label">{priceLegend}</legend>
      <label>
        <span className="visually-hidden">{priceLegend} от</span>
        <input
          className="input"
          name={urlKey(kind, 'priceFrom')}
          inputMode="numeric"
          autoComplete="off"
          placeholder="от"
          value={from}
          onChange={(e) => onChange({ priceFrom: e.target.value })}
        />
      </label>
      <span aria-hidden>—</span>
      <label>
        <span className="visually-hidden">{priceLegend} до</span>
        <input
          className="input"
          name={urlKey(kind, 'priceTo')}
          inputMode="numeric"
          autoComplete="off"
          placeholder="до"
          value={to}
          onChange={(e) => onChange({ priceTo: e.target.value })}
        />
      </label>
    </fieldset>
  );
}

export function FiltersDays({ value, set }: { value?: number; set: SetFilters }) {
  return (
    <label className="filters__field">
      <span className="filters__label">Срок выполнения</span>
      <select
        className="input"
        name="days"
        value={value ?? ''}
        onChange={(e) => set({ daysMax: e.target.value ? Number(e.target.value) : undefined })}
      >
        <option value="">Любой</option>
        {DELIVERY_OPTIONS.map(([days, label]) => (
          <option key={days} value={days}>
            {label}
          </option>
        ))}
        {value && !DELIVERY_OPTIONS.some(([d]) => d === value) && <option value={value}>До {value} дн.</option>}
      </select>
    </label>
  );
}

export function FiltersLevel({ value, set }: { value?: SellerLevel; set: SetFilters }) {
  return (
    <label className="filters__field">
      <span className="filters__label">Уровень продавца</span>
      <select
        className="input"
        name="level"
        value={value ?? ''}
        onChange={(e) => set({ level: (e.target.value || undefined) as SellerLevel | undefined })}
      >
        <option value="">Любой</option>
        {SELLER_LEVELS.map((level) => (
          <option key={level} value={level}>
            {SELLER_LEVEL_TITLES[level]}
          </option>
        ))}
      </select>
    </label>
  );
}
