import { useCallback, useState, type FormEvent } from 'react';
import { Plus, Trash2 } from '../../components/ui/icons.tsx';
import type { ApiError } from '#contract/api';
import type { ServiceInput } from '#contract/catalog';
import { MAX_SERVICE_IMAGES, PACKAGE_KINDS, PACKAGE_TITLES } from '#contract/catalog-constants';
import { Checkbox, Field, TextField } from '../../components/ui/form.tsx';
import { CategoryFields } from './category-fields.tsx';
import { FileUploader } from './file-uploader.tsx';
import { FormProblem } from './form-problem.tsx';
import { TagsInput } from './tags-input.tsx';
import { useItemForm } from './use-item-form.ts';
import { useShell } from '../../lib/use-shell.ts';
import { kopecksToRubles } from './money.ts';
import {
  emptyServiceValues,
  enabledKinds,
  newExtra,
  serviceBody,
  validateService,
  type ExtraValues,
  type FieldErrors,
  type PackageKind,
  type PackageValues,
  type ServiceFormValues,
} from './values.ts';

const MAX_EXTRAS = 10;
const first = (errors: FieldErrors, key: string) => errors[key]?.[0];
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

export type SubmitService = (body: ServiceInput) => Promise<{ data?: unknown; error?: ApiError }>;

export interface ServiceFormProps {
  initial?: ServiceFormValues;
  /**
   * 'owner': "Сохранить черновик" (new services and drafts) and "Отправить на модерацию";
   * 'admin': one "Сохранить" that keeps the state.
   */
  mode: 'owner' | 'admin';
  /** The state of the service being edited (undefined for a new one). */
  status?: string;
  onSubmit: SubmitService;
  /** Called after a successful save with whether it went to moderation. */
  onSaved: (published: boolean) => void;
  cancelTo?: React.ReactNode;
}

export function ServiceForm({ initial, mode, status, onSubmit, onSaved, cancelTo }: ServiceFormProps) {
  // The operator's minimum price (setting services.minPrice, from the page's config).
  const minPrice = useShell().config.minServicePrice;
  const validate = useCallback((v: ServiceFormValues) => validateService(v, true, minPrice), [minPrice]);
  const form = useItemForm<ServiceFormValues>(() => initial ?? emptyServiceValues(), validate);
  const { values, set, touch, errors, submit: send, busy, problem, formRef } = form;
  const [uploading, setUploading] = useState(false);
  const [uploadWait, setUploadWait] = useState(false);
  const [pressed, setPressed] = useState<'draft' | 'publish' | null>(null);
  // The server: a draft stays a draft unless sent; a service in moderation stays there; any other goes back to it.
  const canDraft = mode === 'owner' && (!status || status === 'draft');
  const mainLabel =
    mode === 'admin'
      ? 'Сохранить'
      : !status || status === 'draft'
        ? 'Отправить на модерацию'
        : status === 'moderation'
          ? 'Сохранить'
          : 'Сохранить и отправить на модерацию';

  async function save(publish: boolean) {
    if (uploading) return setUploadWait(true);
    setUploadWait(false);
    setPressed(publish ? 'publish' : 'draft');
    const saved = await send(() => onSubmit(serviceBody(values, publish).body));
    setPressed(null);
    if (saved) onSaved(publish);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Enter in a field saves the way the main button does.
    void save(mode === 'owner');
  }

  const text = (key: 'title' | 'description') => ({
    value: values[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
    onBlur: () => touch(key),
  });
  const enabled = enabledKinds(values);
  const setPackage = (kind: PackageKind, change: Partial<PackageValues>) =>
    set('packages', (p) => ({ ...p, [kind]: { ...p[kind], ...change } }), 'packages');
  const setExtra = (key: string, change: Partial<ExtraValues>, i: number) =>
    set('extras', (list) => list.map((e) => (e.key === key ? { ...e, ...change } : e)), `extras.${i}`);

  return (
    <form
      ref={formRef}
      className="item-form"
      onSubmit={submit}
      noValidate
      aria-label={mode === 'admin' ? 'Услуга' : 'Ваша услуга'}
    >
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

      <section className="card form" aria-labelledby="svc-images">
        <h2 id="svc-images" className="card__title">
          Изображения
        </h2>
        <FileUploader
          mode="images"
          label="Изображения услуги"
          hint={
            mode === 'admin'
              ? 'Изображения загружает продавец; здесь их можно убрать или сделать обложкой другое.'
              : `До ${MAX_SERVICE_IMAGES} изображений PNG, JPEG, WebP или GIF до 20 МБ. Первое станет обложкой в каталоге, лучше 4:3.`
          }
          canAdd={mode === 'owner'}
          value={values.images}
          onChange={(update) => set('images', update)}
          max={MAX_SERVICE_IMAGES}
          error={first(errors, 'images')}
          itemError={(i) => first(errors, `images.${i}`)}
          onBusyChange={setUploading}
        />
      </section>

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
            hint={`Не меньше ${kopecksToRubles(minPrice)} руб.`}
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

      <div className="card form item-form__footer">
        {uploadWait && uploading && (
          <p className="form-error" role="alert">
            Дождитесь окончания загрузки изображений.
          </p>
        )}
        <FormProblem problem={problem} />
        <div className="item-form__buttons">
          {cancelTo}
          {canDraft && (
            <button type="button" className="btn btn--ghost" onClick={() => save(false)} disabled={busy}>
              {pressed === 'draft' ? 'Сохранение…' : 'Сохранить черновик'}
            </button>
          )}
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {pressed && (pressed === 'publish' || mode === 'admin') ? 'Сохранение…' : mainLabel}
          </button>
        </div>
      </div>
    </form>
  );
}
