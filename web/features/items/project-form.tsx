import { useCallback, useState, type FormEvent, type ReactNode } from 'react';
import type { ApiError } from '#contract/api';
import type { ProjectInput } from '#contract/catalog';
import { Field, TextField } from '../../components/ui/form.tsx';
import { CategoryFields } from './category-fields.tsx';
import { FileUploader, type FileUploaderProps } from '../../components/ui/file-uploader.tsx';
import { FormProblem } from './form-problem.tsx';
import { useItemForm } from './use-item-form.ts';
import {
  emptyProjectValues,
  projectBody,
  validateProject,
  type FieldErrors,
  type ProjectFormValues,
} from './values.ts';

const MAX_ATTACHMENTS = 10;

export type SubmitProject = (body: ProjectInput) => Promise<{ data?: unknown; error?: ApiError }>;

export interface ProjectFormProps {
  initial?: ProjectFormValues;
  /** 'admin': the customer's attachments can be removed but not added to. */
  mode?: 'owner' | 'admin';
  /** The main button: "Опубликовать" for a new project, "Сохранить" when editing. */
  submitLabel: string;
  onSubmit: SubmitProject;
  onSaved: () => void;
  cancelTo?: ReactNode;
}

export function ProjectForm({ initial, mode = 'owner', submitLabel, onSubmit, onSaved, cancelTo }: ProjectFormProps) {
  const validate = useCallback((v: ProjectFormValues) => validateProject(v), []);
  const form = useItemForm<ProjectFormValues>(() => initial ?? emptyProjectValues(), validate);
  const { values, set, touch, errors, submit: send, busy, problem, formRef } = form;
  const [uploading, setUploading] = useState(false);
  const [uploadWait, setUploadWait] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (uploading) return setUploadWait(true);
    setUploadWait(false);
    const saved = await send(() => onSubmit(projectBody(values).body));
    if (saved) onSaved();
  }

  const field = (key: 'title' | 'description' | 'budget' | 'days') => ({
    value: values[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
    onBlur: () => touch(key),
  });

  return (
    <form ref={formRef} className="item-form" onSubmit={submit} noValidate aria-label="Проект">
      <section className="card form" aria-labelledby="prj-main">
        <h2 id="prj-main" className="card__title">
          Задача
        </h2>
        <TextField
          label="Название"
          name="title"
          {...field('title')}
          errors={errors}
          maxLength={120}
          required
          placeholder="Например: Нужен логотип для кофейни"
          hint={`${values.title.trim().length} из 120 символов, не меньше 10`}
        />
        <Field
          label="Описание"
          error={errors.description}
          hint={`${values.description.trim().length} из 10 000 символов, не меньше 30. Что нужно сделать, в каком виде сдать результат, есть ли примеры.`}
        >
          {(a11y) => (
            <textarea
              name="description"
              className="input input--area input--tall"
              {...a11y}
              {...field('description')}
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
      </section>

      <section className="card form" aria-labelledby="prj-terms">
        <h2 id="prj-terms" className="card__title">
          Бюджет и сроки
        </h2>
        <div className="form__row">
          <TextField
            label="Бюджет до, руб."
            name="budget"
            inputMode="decimal"
            {...field('budget')}
            errors={errors}
            hint="Необязательно, от 500 руб. Пусто — по договорённости"
          />
          <TextField
            label="Срок, дней"
            name="days"
            inputMode="numeric"
            {...field('days')}
            errors={errors}
            hint="Необязательно, от 1 до 365"
          />
        </div>
      </section>

      <AttachmentsSection
        mode={mode}
        value={values.attachments}
        onChange={(update) => set('attachments', update)}
        errors={errors}
        onBusyChange={setUploading}
      />

      <div className="card form item-form__footer">
        {uploadWait && uploading && (
          <p className="form-error" role="alert">
            Дождитесь окончания загрузки файлов.
          </p>
        )}
        <FormProblem problem={problem} />
        <div className="item-form__buttons">
          {cancelTo}
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {busy ? 'Сохранение…' : submitLabel}
          </button>
        </div>
      </div>
    </form>
  );
}

interface AttachmentsSectionProps {
  mode: 'owner' | 'admin';
  value: ProjectFormValues['attachments'];
  onChange: FileUploaderProps['onChange'];
  errors: FieldErrors;
  onBusyChange: (busy: boolean) => void;
}

function AttachmentsSection({ mode, value, onChange, errors, onBusyChange }: AttachmentsSectionProps) {
  return (
    <section className="card form" aria-labelledby="prj-files">
      <h2 id="prj-files" className="card__title">
        Файлы
      </h2>
      <FileUploader
        mode="files"
        label="Вложения"
        hint={
          mode === 'admin'
            ? 'Файлы прикладывает заказчик; здесь их можно только убрать.'
            : 'Необязательно. До 10 файлов по 20 МБ: изображения, PDF, TXT, документы Word и OpenOffice, таблицы, архивы ZIP.'
        }
        canAdd={mode === 'owner'}
        value={value}
        onChange={onChange}
        max={MAX_ATTACHMENTS}
        error={errors.attachments?.[0]}
        itemError={(i) => errors[`attachments.${i}`]?.[0]}
        onBusyChange={onBusyChange}
      />
    </section>
  );
}
