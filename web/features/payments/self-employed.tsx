import { useState, type FormEvent } from 'react';
import type { SelfEmployed } from '#contract/payments';
import { api } from '../../lib/api.ts';
import { withStepUp } from '../two-factor/index.ts';
import { toast } from '../../lib/toast-store.ts';
import { Field } from '../../components/ui/form.tsx';

// The finance page's self-employment (ADR 050): a seller gives their INN or phone, ЮKassa registers them, they allow
// ЮKassa in «Мой налог», and from then on each payout registers its receipt there.

const STATUS_TEXTS: Record<NonNullable<SelfEmployed>['status'], string> = {
  pending: 'Ожидает подтверждения: разрешите ЮKassa регистрировать чеки в приложении «Мой налог».',
  confirmed: 'Подключено: чеки по выплатам регистрируются в «Мой налог» автоматически.',
  canceled: 'Разрешение в «Мой налог» отозвано — выплаты идут без чеков.',
  unregistered: 'Вы больше не самозанятый по данным налоговой — выплаты идут без чеков.',
};

export function SelfEmployedForm({ initial }: { initial: SelfEmployed }) {
  const [state, setState] = useState<SelfEmployed>(initial);
  const [itn, setItn] = useState(initial?.itn ?? '');
  const [phone, setPhone] = useState(initial?.phone ?? '');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setProblem(null);
    const res = await withStepUp(() => api.write('finance.declareSelfEmployed', { body: itn.trim() ? { itn: itn.trim() } : { phone: phone.trim() } }));
    setBusy(false);
    if (res.error) {
      if (res.error.errors && Object.keys(res.error.errors).length) setErrors(res.error.errors);
      else setProblem(res.error.message);
      return;
    }
    setState(res.data.result);
    toast('Данные самозанятого отправлены в ЮKassa', { type: 'success' });
  }

  return (
    <form className="form form--card fin-self-employed" onSubmit={submit} noValidate>
      <h2 className="fin-withdraw__title">Самозанятость</h2>
      {state ? (
        <p className="notice" data-testid="self-employed-status">
          {STATUS_TEXTS[state.status]}
          {state.confirmation_url && (
            <>
              {' '}
              <a href={state.confirmation_url} target="_blank" rel="noreferrer">
                Открыть «Мой налог»
              </a>
            </>
          )}
        </p>
      ) : (
        <p className="muted">Если вы самозанятый, укажите ИНН или телефон из «Мой налог»: чеки по выплатам будут регистрироваться сами.</p>
      )}
      <Field label="ИНН" error={errors.itn}>
        {(a11y) => <input className="input" value={itn} inputMode="numeric" maxLength={12} placeholder="12 цифр" onChange={(e) => setItn(e.target.value)} {...a11y} />}
      </Field>
      <Field label="или телефон" error={errors.phone}>
        {(a11y) => <input className="input" value={phone} inputMode="tel" placeholder="+7 900 123-45-67" onChange={(e) => setPhone(e.target.value)} {...a11y} />}
      </Field>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <div className="form__footer">
        <button type="submit" className="btn btn--secondary" disabled={busy}>
          {state ? 'Обновить данные' : 'Я самозанятый'}
        </button>
      </div>
    </form>
  );
}
