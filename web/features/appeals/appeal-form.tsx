import { useEffect, useState } from 'react';
import type { Appeal, AppealTarget } from '#contract/appeals';
import { APPEAL_MAX_FILES, APPEAL_MAX_TEXT, APPEAL_MIN_TEXT, APPEAL_SUBJECT_LABELS, type AppealSubject } from '#contract/appeal-constants';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { FileUploader } from '../../components/ui/file-uploader.tsx';
import { AppealTitle } from './appeal-item.tsx';
import { appealFormErrors, type AppealFormErrors, formSubject } from './format.ts';

/**
 * «Новое обращение». Opened from a «Пожаловаться» link (?subject=…&object=…) it names the object, checked by the
 * server as the appeal will be («Жалоба на услугу „…“»); opened by hand it is a question to the administration.
 */
export function AppealForm({ subject: wanted, object, onDone, onCancel }: { subject: string | null; object: string | null; onDone: (appeal: Appeal) => void; onCancel: () => void }) {
  const subject: AppealSubject = formSubject(wanted, object);
  const [target, setTarget] = useState<AppealTarget | null>(subject === 'question' ? { subject, object: null } : null);
  const [targetError, setTargetError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [files, setFiles] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<AppealFormErrors>({});

  useEffect(() => {
    if (subject === 'question' || !object) return;
    // The form is keyed by its subject and object: a new pair is a new form, with its state fresh.
    let live = true;
    void api.read('appeals.target', { query: { subject, object } }, { fresh: true }).then(
      (res) => live && setTarget(res.result),
      (e: unknown) => live && setTargetError((e as { message?: string }).message ?? 'Не удалось проверить, о чём обращение'),
    );
    return () => void (live = false);
  }, [subject, object]);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!target) return;
    setBusy(true);
    const { data, error } = await api.write('appeals.create', {
      body: { subject: target.subject, object: target.object?._id ?? null, text, files },
    });
    setBusy(false);
    if (error) return setErrors(appealFormErrors(error));
    toast('Обращение отправлено. Ответ придёт в уведомлениях и на почту', { type: 'success' });
    onDone(data.result);
  }

  if (targetError) {
    return (
      <div className="card appeal-form" role="alert" data-testid="appeal-form">
        <p>{targetError}. Пожаловаться можно только на то, что вам видно, и не на своё.</p>
        <button type="button" className="btn btn--ghost" onClick={onCancel}>
          Закрыть
        </button>
      </div>
    );
  }
  if (!target) return <div className="skeleton" style={{ height: 240 }} aria-busy="true" />;

  return (
    <form className="card form appeal-form" onSubmit={(e) => void submit(e)} data-testid="appeal-form" aria-labelledby="appeal-form-title">
      <h2 className="card__title" id="appeal-form-title">
        Новое обращение
      </h2>
      <p className="appeal-form__subject" data-testid="appeal-subject">
        {target.object ? <AppealTitle appeal={target} /> : APPEAL_SUBJECT_LABELS[target.subject]}
      </p>
      {target.subject === 'question' && (
        <p className="muted appeal-form__hint">Чтобы пожаловаться на услугу, проект, пользователя или заказ, нажмите «Пожаловаться» на его странице.</p>
      )}
      <label className="field">
        <span className="field__label">Суть обращения</span>
        <textarea
          className="input input--area"
          name="text"
          required
          minLength={APPEAL_MIN_TEXT}
          maxLength={APPEAL_MAX_TEXT}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={target.subject === 'question' ? 'Ваш вопрос администрации' : 'Что случилось: подробно, с датами и ссылками'}
          aria-invalid={errors.text ? true : undefined}
        />
        {errors.text && <span className="field__error">{errors.text}</span>}
        <span className="field__hint">
          От {APPEAL_MIN_TEXT} до {APPEAL_MAX_TEXT} символов
        </span>
      </label>
      <FileUploader
        mode="files"
        label="Файлы (необязательно)"
        hint={`Скриншоты, документы — до ${APPEAL_MAX_FILES} файлов по 20 МБ`}
        value={files}
        onChange={(update) => setFiles(update)}
        max={APPEAL_MAX_FILES}
        error={errors.files}
        onBusyChange={setUploading}
      />
      {errors.form && (
        <p className="field__error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="appeal-form__actions">
        <button type="submit" className="btn btn--primary" disabled={busy || uploading}>
          Отправить
        </button>
        <button type="button" className="btn btn--ghost" onClick={onCancel}>
          Отмена
        </button>
      </div>
    </form>
  );
}
