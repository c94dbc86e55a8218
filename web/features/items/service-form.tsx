import { useCallback, useState, type FormEvent } from 'react';
import type { ApiError } from '#contract/api';
import type { ServiceInput } from '#contract/catalog';
import { MAX_SERVICE_IMAGES } from '#contract/catalog-constants';
import { FileUploader } from '../../components/ui/file-uploader.tsx';
import { FormProblem } from './form-problem.tsx';
import { useItemForm } from './use-item-form.ts';
import { useShell } from '../../lib/use-shell.ts';
import { canSaveDraft, mainButtonLabel, mainButtonText } from './form-buttons.ts';
import { emptyServiceValues, serviceBody, validateService, type ServiceFormValues } from './values.ts';
import {
  ServiceExtrasFields,
  ServiceMainFields,
  ServicePackagesFields,
  ServicePriceFields,
  first,
} from './service-form-sections.tsx';

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
  const { values, set, errors, submit: send, busy, problem, formRef } = form;
  const [uploading, setUploading] = useState(false);
  const [uploadWait, setUploadWait] = useState(false);
  const [pressed, setPressed] = useState<'draft' | 'publish' | null>(null);
  // The server: a draft stays a draft unless sent; a service in moderation stays there; any other goes back to it.
  const canDraft = canSaveDraft(mode, status);

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

  return (
    <form
      ref={formRef}
      className="item-form"
      onSubmit={submit}
      noValidate
      aria-label={mode === 'admin' ? 'Услуга' : 'Ваша услуга'}
    >
      <ServiceMainFields form={form} />

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

      <ServicePriceFields form={form} minPrice={minPrice} />

      <ServicePackagesFields form={form} />

      <ServiceExtrasFields form={form} />

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
            {mainButtonText(pressed, mode, mainButtonLabel(mode, status))}
          </button>
        </div>
      </div>
    </form>
  );
}
