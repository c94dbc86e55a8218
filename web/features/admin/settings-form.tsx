import { useState, type FormEvent } from 'react';
import type { Settings } from '#contract/settings';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { methodDrafts, methodsFromDrafts, PaymentMethodsEditor, type MethodDrafts } from '../payments/index.ts';
import { FormError } from '../../components/ui/form.tsx';
import {
  describeSetting,
  editableKeys,
  fieldError,
  GROUPS,
  initialTexts,
  keysOfGroup,
  settingsPatch,
} from './settings-fields.ts';

// /admin/settings: every operator setting of contract/settings.ts on one form, grouped, in the units people think
// in (settings-fields.ts), so nothing an operator may change is hidden.

export function SettingsForm({ settings, onSaved }: { settings: Settings; onSaved: () => void }) {
  const keys = editableKeys(settings);
  const [values, setValues] = useState<Record<string, string>>(() => initialTexts(settings, keys));
  const [methods, setMethods] = useState<MethodDrafts>(() => methodDrafts(settings['payments.methods']));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { errors: local, patch } = settingsPatch(settings, keys, values);
    const fromDrafts = methodsFromDrafts(methods);
    Object.assign(local, fromDrafts.errors);
    if (JSON.stringify(fromDrafts.rates) !== JSON.stringify(settings['payments.methods'])) patch['payments.methods'] = fromDrafts.rates;
    setErrors(local);
    if (Object.keys(local).length) return void toast('Исправьте отмеченные поля');
    if (!Object.keys(patch).length) return void toast('Ничего не изменилось');
    setBusy(true);
    const res = await api.write('admin.settings.update', { body: patch as never });
    setBusy(false);
    if (res.error) {
      setErrors(res.error.errors ?? { _: [res.error.message] });
      toast(res.error.message);
      return;
    }
    toast('Настройки сохранены', { type: 'success' });
    onSaved();
  }

  const errorOf = (key: string) => fieldError(errors, key);

  return (
    <form className="settings-form" onSubmit={submit} noValidate>
      {GROUPS.map(([group, title]) => {
        const inGroup = keysOfGroup(settings, keys, group);
        if (!inGroup.length && group !== 'payments') return null;
        return (
          <fieldset key={group} id={group} className="settings-form__group card">
            <legend className="settings-form__legend">{title}</legend>
            <div className="settings-form__grid">
              {inGroup.map((key) => {
                const d = describeSetting(key, settings[key as keyof Settings]);
                const error = errorOf(key);
                const id = `setting-${key}`;
                return (
                  <div key={key} className={`field${error ? ' field--invalid' : ''}${d.kind === 'text' || d.kind === 'json' ? ' settings-form__wide' : ''}`}>
                    <label className="field__label" htmlFor={id}>
                      {d.label}
                      {d.unit ? `, ${d.unit}` : ''}
                    </label>
                    {d.kind === 'bool' ? (
                      <select
                        id={id}
                        name={key}
                        className="input"
                        value={values[key] ?? 'false'}
                        aria-describedby={d.hint ? `${id}-hint` : undefined}
                        onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
                      >
                        <option value="true">Да</option>
                        <option value="false">Нет</option>
                      </select>
                    ) : (
                      <input
                        id={id}
                        name={key}
                        className="input"
                        inputMode={d.kind === 'text' || d.kind === 'json' ? undefined : 'decimal'}
                        value={values[key] ?? ''}
                        aria-invalid={error ? true : undefined}
                        aria-describedby={d.hint ? `${id}-hint` : undefined}
                        onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
                      />
                    )}
                    {d.hint && (
                      <p id={`${id}-hint`} className="field__hint">
                        {d.hint}
                      </p>
                    )}
                    {error && (
                      <p className="field__error" role="alert">
                        {error}
                      </p>
                    )}
                  </div>
                );
              })}
            </div>
            {group === 'payments' && (
              <>
                <h3 className="settings-form__subtitle">Способы оплаты</h3>
                <PaymentMethodsEditor drafts={methods} onChange={setMethods} errorOf={errorOf} />
              </>
            )}
          </fieldset>
        );
      })}
      <p className="muted">
        Синонимы поиска — на странице <AppLink to="/admin/search-suggestions">Поисковые подсказки</AppLink>.
      </p>
      <FormError message={errors._?.[0]} />
      <div className="settings-form__footer">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {busy ? 'Сохранение…' : 'Сохранить настройки'}
        </button>
      </div>
    </form>
  );
}
