import type { ReactNode } from 'react';
import type { Appeal } from '#contract/appeals';
import { APPEAL_STATUS_LABELS, APPEAL_SUBJECT_LABELS } from '#contract/appeal-constants';
import { formatDate } from '../../lib/dates.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { APPEAL_STATUS_TONES } from './format.ts';

/** An appeal's state as a coloured badge. */
export function AppealStatusBadge({ status }: { status: Appeal['status'] }) {
  return <span className={`badge status-badge status-badge--${APPEAL_STATUS_TONES[status]}`}>{APPEAL_STATUS_LABELS[status]}</span>;
}

/** «Жалоба на услугу „Логотип“», linked to the object when it has a page. */
export function AppealTitle({ appeal }: { appeal: Pick<Appeal, 'subject' | 'object'> }) {
  const label = APPEAL_SUBJECT_LABELS[appeal.subject];
  if (!appeal.object) return <>{label}</>;
  return (
    <>
      {label} «{appeal.object.link ? <AppLink to={appeal.object.link}>{appeal.object.title}</AppLink> : appeal.object.title}»
    </>
  );
}

/** One appeal: its subject, state, text, files and, once closed, the administration's answer. */
export function AppealItem({ appeal, children }: { appeal: Appeal; children?: ReactNode }) {
  return (
    <article className="card appeal" data-testid="appeal" data-status={appeal.status}>
      <header className="appeal__head">
        <p className="appeal__title">
          <span className="muted">№{appeal.number} · </span>
          <AppealTitle appeal={appeal} />
        </p>
        <AppealStatusBadge status={appeal.status} />
      </header>
      <p className="muted appeal__meta">
        Отправлено {formatDate(appeal.created_at)}
        {appeal.taken_at && appeal.status === 'in_progress' && ` · в работе с ${formatDate(appeal.taken_at)}`}
      </p>
      <p className="appeal__text">{appeal.text}</p>
      {appeal.files.length > 0 && (
        <ul className="appeal__files">
          {appeal.files.map((f) => (
            <li key={f.url}>
              <a href={f.url} target="_blank" rel="noreferrer">
                {f.name}
              </a>
            </li>
          ))}
        </ul>
      )}
      {appeal.answer !== null && (
        <div className="appeal__answer" data-testid="appeal-answer">
          <p className="appeal__answer-head">
            Ответ администрации{appeal.closed_at ? ` · ${formatDate(appeal.closed_at)}` : ''}
          </p>
          <p className="appeal__text">{appeal.answer}</p>
        </div>
      )}
      {children}
    </article>
  );
}
