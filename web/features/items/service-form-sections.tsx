import { Plus, Trash2 } from '../../components/ui/icons.tsx';
import { PACKAGE_KINDS, PACKAGE_TITLES } from '#contract/catalog-constants';
import { Checkbox, Field, TextField } from '../../components/ui/form.tsx';
import { formatRubles } from '#contract/money-format';
import { CategoryFields } from './category-fields.tsx';
import { TagsInput } from './tags-input.tsx';
import type { ItemForm } from './use-item-form.ts';
import {
  enabledKinds,
  newExtra,
  type ExtraValues,
  type FieldErrors,
  type PackageKind,
  type PackageValues,
  type ServiceFormValues,
} from './values.ts';

// The sections of the service form that edit its text and its prices; the form itself keeps the images, the
// buttons and the saving.

const MAX_EXTRAS = 10;
export const first = (errors: FieldErrors, key: string) => errors[key]?.[0];
/** The errors of one row ('packages.1.price' …) under the row's own field names ('price' …). */
function rowErrors(errors: FieldErrors, prefix: string): FieldErrors {
  const row: FieldErrors = {};
  for (const [key, messages] of Object.entries(errors))
    if (key.startsWith(`${prefix}.`)) row[key.slice(prefix.length + 1)] = messages;
  return row;
}
/** The first message of a list or of any of its items ('tags', 'tags.3'). */
const firstUnder = (errors: FieldErrors, key: string) =>
  first(errors, key) ?? Object.entries(errors).find(([k]) => k.startsWith(`${key}.`))?.[1][0];

interface SectionProps {
  form: ItemForm<ServiceFormValues>;
}

export function ServiceMainFields({ form }: SectionProps) {
  const { values, set, touch, errors } = form;
  const text = (key: 'title' | 'description') => ({
    value: values[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
    onBlur: () => touch(key),
  });
  return (
    <section className="card form" aria-labelledby="svc-main">
      <h2 id="svc-main" className="card__title">
        Основное
      </h2>
      <TextField
        label="Название"
        name="title"
        {...text('title')}
        errors={errors}
        maxLength={120}
        required
        placeholder="Например: Нарисую логотип для вашей компании"
        hint={`${values.title.trim().length} из 120 символов, не меньше 10`}
      />
      <Field
        label="Описание"
        error={errors.description}
        hint={`${values.description.trim().length} из 10 000 символов, не меньше 50. Расскажите, что получит покупатель и что нужно от него.`}
      >
        {(a11y) => (
          <textarea
            name="description"
            className="input input--area input--tall"
            {...a11y}
            {...text('description')}
            maxLength={10_000}
            required
          />
        )}
      </Field>
      <CategoryFields
        category={values.category}
        sub={values.sub}
        errors={errors}
        onCategory={(slug) => {
          set('category', slug);
          set('sub', '');
        }}
        onSub={(slug) => set('sub', slug)}
        onBlur={touch}
      />
      <TagsInput
        label="Теги"
        value={values.tags}
        onChange={(tags) => set('tags', tags)}
        onBlur={() => touch('tags')}
        error={firstUnder(errors, 'tags')}
      />
    </section>
  );
}

export function ServicePriceFields({ form, minPrice }: SectionProps & { minPrice: number }) {
  const { values, set, touch, errors } = form;
  return (
    <section className="card form" aria-labelledby="svc-price">
      <h2 id="svc-price" className="card__title">
        Цена и сроки
      </h2>
      <div className="form__row form__row--3">
        <TextField
          label="Цена, руб."
          name="price"
          inputMode="decimal"
          value={values.price}
          onChange={(e) => set('price', e.target.value)}
          onBlur={() => touch('price')}
          errors={errors}
          required
          hint={`Не меньше ${formatRubles(minPrice)}`}
        />
        <TextField
          label="Срок, дней"
          name="days"
          inputMode="numeric"
          value={values.days}
          onChange={(e) => set('days', e.target.value)}
          onBlur={() => touch('days')}
          errors={errors}
          required
          hint="От 1 до 365"
        />
        <TextField
          label="Правок включено"
          name="revisions"
          inputMode="numeric"
          value={values.revisions}
          onChange={(e) => set('revisions', e.target.value)}
          onBlur={() => touch('revisions')}
          errors={errors}
          hint="От 0 до 20"
        />
      </div>
    </section>
  );
}

export function ServicePackagesFields({ form }: SectionProps) {
  const { values, set, touch, errors } = form;
  const enabled = enabledKinds(values);
  const setPackage = (kind: PackageKind, change: Partial<PackageValues>) =>
    set('packages', (p) => ({ ...p, [kind]: { ...p[kind], ...change } }), 'packages');
  return (
    <section className="card form" aria-labelledby="svc-packages">
      <h2 id="svc-packages" className="card__title">
        Пакеты
      </h2>
      <p className="field__hint">
        Необязательно. Пакеты дают покупателю выбор: простой вариант дешевле, расширенный — с большим объёмом работы.
      </p>
      <div className="item-packages">
        {PACKAGE_KINDS.map((kind) => {
          const p = values.packages[kind];
          const i = enabled.indexOf(kind);
          const key = (field: string) => `packages.${i}.${field}`;
          const packageErrors = p.enabled ? rowErrors(errors, `packages.${i}`) : {};
          return (
            <fieldset key={kind} className={`item-package${p.enabled ? ' item-package--on' : ''}`}>
              <legend className="item-package__title">{PACKAGE_TITLES[kind]}</legend>
              <Checkbox
                label={
                  <>
                    Включить<span className="visually-hidden"> пакет «{PACKAGE_TITLES[kind]}»</span>
                  </>
                }
                checked={p.enabled}
                onChange={(e) => setPackage(kind, { enabled: e.target.checked })}
              />
              {p.enabled && (
                <>
                  <div className="form__row">
                    <TextField
                      label="Цена, руб."
                      name="price"
                      inputMode="decimal"
                      value={p.price}
                      onChange={(e) => setPackage(kind, { price: e.target.value })}
                      onBlur={() => touch(key('price'))}
                      errors={packageErrors}
                    />
                    <TextField
                      label="Срок, дней"
                      name="days"
                      inputMode="numeric"
                      value={p.days}
                      onChange={(e) => setPackage(kind, { days: e.target.value })}
                      onBlur={() => touch(key('days'))}
                      errors={packageErrors}
                    />
                  </div>
                  <TextField
                    label="Правок"
                    name="revisions"
                    inputMode="numeric"
                    value={p.revisions}
                    onChange={(e) => setPackage(kind, { revisions: e.target.value })}
                    onBlur={() => touch(key('revisions'))}
                    errors={packageErrors}
                  />
                  <Field label="Что входит" error={packageErrors.description}>
                    {(a11y) => (
                      <textarea
                        className="input input--area"
                        {...a11y}
                        value={p.description}
                        maxLength={500}
                        onChange={(e) => setPackage(kind, { description: e.target.value })}
                        onBlur={() => touch(key('description'))}
                      />
                    )}
                  </Field>
                </>
              )}
            </fieldset>
          );
        })}
      </div>
      {first(errors, 'packages') && (
        <p className="field__error" role="alert">
          {first(errors, 'packages')}
        </p>
      )}
    </section>
  );
}

export function ServiceExtrasFields({ form }: SectionProps) {
  const { values, set, touch, errors } = form;
  const setExtra = (key: string, change: Partial<ExtraValues>, i: number) =>
    set('extras', (list) => list.map((e) => (e.key === key ? { ...e, ...change } : e)), `extras.${i}`);
  return (
    <section className="card form" aria-labelledby="svc-extras">
      <h2 id="svc-extras" className="card__title">
        Дополнительные опции
      </h2>
      <p className="field__hint">
        Необязательно. Например, «Срочное выполнение» или «Исходные файлы» за отдельную плату.
      </p>
      {values.extras.length > 0 && (
        <ol className="item-extras">
          {values.extras.map((extra, i) => {
            const extraErrors = rowErrors(errors, `extras.${i}`);
            return (
              <li key={extra.key} className="item-extra">
                <TextField
                  label={`Опция ${i + 1}`}
                  name="title"
                  value={extra.title}
                  maxLength={100}
                  onChange={(e) => setExtra(extra.key, { title: e.target.value }, i)}
                  onBlur={() => touch(`extras.${i}.title`)}
                  errors={extraErrors}
                  placeholder="Название"
                />
                <TextField
                  label="Цена, руб."
                  name="price"
                  inputMode="decimal"
                  value={extra.price}
                  onChange={(e) => setExtra(extra.key, { price: e.target.value }, i)}
                  onBlur={() => touch(`extras.${i}.price`)}
                  errors={extraErrors}
                />
                <TextField
                  label="+ дней"
                  name="days"
                  inputMode="numeric"
                  value={extra.days}
                  onChange={(e) => setExtra(extra.key, { days: e.target.value }, i)}
                  onBlur={() => touch(`extras.${i}.days`)}
                  errors={extraErrors}
                />
                <button
                  type="button"
                  className="icon-btn item-extra__remove"
                  aria-label={`Удалить опцию ${i + 1}${extra.title ? ` «${extra.title}»` : ''}`}
                  title="Удалить опцию"
                  onClick={() => set('extras', (list) => list.filter((e) => e.key !== extra.key), 'extras')}
                >
                  <Trash2 size={18} aria-hidden="true" />
                </button>
              </li>
            );
          })}
        </ol>
      )}
      {first(errors, 'extras') && (
        <p className="field__error" role="alert">
          {first(errors, 'extras')}
        </p>
      )}
      {values.extras.length < MAX_EXTRAS && (
        <div>
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => set('extras', (list) => [...list, newExtra()], 'extras')}
          >
            <Plus size={18} aria-hidden="true" /> Добавить опцию
          </button>
        </div>
      )}
    </section>
  );
}
