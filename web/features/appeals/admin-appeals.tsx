import { useState } from 'react';
import { useNavigation, useSearchParams } from 'react-router';
import { GetForm } from '../../components/ui/get-form.tsx';
import type { Appeal } from '#contract/appeals';
import { APPEAL_MAX_ANSWER, APPEAL_SUBJECT_LABELS, APPEAL_SUBJECTS } from '#contract/appeal-constants';
import { api } from '../../lib/api.ts';
import { displayName } from '../../lib/people.ts';
import { toast } from '../../lib/toast-store.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { StateTabs, NextPage, useListLink } from '../../components/ui/list-controls.tsx';
import { FormError, SelectField, TextAreaField, TextField } from '../../components/ui/form.tsx';
import { AppealItem } from './appeal-item.tsx';
import { answerError as checkAnswer, answerRefusal, foundText } from './format.ts';
import '../../styles/items.css';
import '../../styles/appeals.css';

// /admin/appeals: the queue of appeals by state, subject and words; an admin takes one and answers it, which
// closes it and tells the author (ADR 035).

export const ADMIN_APPEAL_TABS = [
  { value: 'new', label: 'Новые' },
  { value: 'in_progress', label: 'В работе' },
  { value: 'closed', label: 'Закрытые' },
  { value: 'all', label: 'Все' },
] as const;

export function AdminAppeals({ appeals, total, next, failed }: { appeals: Appeal[]; total: number; next: string | null; failed: boolean }) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const tab = params.get('status') ?? 'new';
  const q = params.get('q') ?? '';
  const subject = params.get('subject') ?? '';
  const link = useListLink('/admin/appeals', 'new');
  // Taken and answered here, shown at once (the list is read again on the next visit).
  const [changed, setChanged] = useState<Record<string, Appeal>>({});
  const shown = appeals.map((a) => changed[a._id] ?? a);

  return (
    <section className="page admin-appeals">
      <h1 className="page__title">Обращения</h1>
      <StateTabs tabs={ADMIN_APPEAL_TABS} current={tab} link={link} />
      <GetForm className="toolbar queue-search" role="search">
        {tab !== 'new' && <input type="hidden" name="status" value={tab} />}
        <SelectField
          label="Тема"
          name="subject"
          defaultValue={subject}
          key={`s:${subject}`}
          placeholder="Все темы"
          options={APPEAL_SUBJECTS.map((value) => ({ value, label: APPEAL_SUBJECT_LABELS[value] }))}
        />
        <TextField label="Поиск" name="q" defaultValue={q} key={`q:${q}`} placeholder="Номер, слова, автор или email" />
        <button type="submit" className="btn btn--primary" disabled={navigation.state !== 'idle'}>
          Найти
        </button>
        {(q || subject) && (
          <AppLink to={link({ q: null, subject: null })} className="btn btn--ghost">
            Сбросить
          </AppLink>
        )}
      </GetForm>
      {failed ? (
        <p className="empty-state" role="alert">
          Не удалось загрузить обращения.
        </p>
      ) : shown.length === 0 ? (
        <p className="empty-state">Обращений не нашлось.</p>
      ) : (
        <>
          <p className="field__hint">{foundText(total)}</p>
          <ul className="appeals__list">
            {shown.map((a) => (
              <li key={a._id}>
                <AppealItem appeal={a}>
                  <p className="muted appeal__author">
                    Автор: <AppLink to={`/admin/users/${a.author._id}`}>{displayName(a.author)}</AppLink>
                    {a.admin && ` · взял ${displayName(a.admin)}`}
                  </p>
                  {a.status !== 'closed' && <AdminActions appeal={a} onChange={(updated) => setChanged((c) => ({ ...c, [updated._id]: updated }))} />}
                </AppealItem>
              </li>
            ))}
          </ul>
          <NextPage next={next} link={link} />
        </>
      )}
    </section>
  );
}

/** «Взять в работу» for a new appeal; the answer that closes it, for a new or taken one. */
function AdminActions({ appeal, onChange }: { appeal: Appeal; onChange: (appeal: Appeal) => void }) {
  const [answer, setAnswer] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  /** The answer's own error, under the field (ADR 046); `problem` is the rest (the appeal closed meanwhile, …). */
  const [answerError, setAnswerError] = useState<string | null>(null);

  async function take() {
    setBusy(true);
    const { data, error } = await api.write('admin.appeals.take', { params: { id: appeal._id } });
    setBusy(false);
    if (error) return setProblem(error.message);
    setProblem(null);
    onChange(data.result);
  }

  async function close(e: React.FormEvent) {
    e.preventDefault();
    const tooShort = checkAnswer(answer);
    if (tooShort) return setAnswerError(tooShort);
    setBusy(true);
    const { data, error } = await api.write('admin.appeals.answer', { params: { id: appeal._id }, body: { answer } });
    setBusy(false);
    if (error) {
      const refusal = answerRefusal(error);
      setAnswerError(refusal.answer);
      return setProblem(refusal.problem);
    }
    setProblem(null);
    toast('Ответ отправлен, обращение закрыто', { type: 'success' });
    onChange(data.result);
  }

  return (
    <form className="appeal__actions" onSubmit={(e) => void close(e)} data-testid="appeal-actions" noValidate>
      {appeal.status === 'new' && (
        <p>
          <button type="button" className="btn btn--ghost btn--sm" disabled={busy} onClick={() => void take()}>
            Взять в работу
          </button>
        </p>
      )}
      <TextAreaField
        label="Ответ автору"
        name="answer"
        errors={answerError ? { answer: [answerError] } : undefined}
        required
        maxLength={APPEAL_MAX_ANSWER}
        value={answer}
        onChange={(e) => {
          setAnswer(e.target.value);
          setAnswerError(null);
        }}
      />
      <FormError message={problem} />
      <button type="submit" className="btn btn--primary" disabled={busy}>
        Ответить и закрыть
      </button>
    </form>
  );
}
