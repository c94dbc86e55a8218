import { useState } from 'react';
import { useRevalidator } from 'react-router';
import type { SessionView } from '#contract/auth';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { renewToken } from '../../lib/token.ts';
import { formatDateTime, formatRelative } from '../../lib/dates.ts';
import { logout } from '../shell/index.ts';

// /profile/settings: the person's sessions (ADR 055). Each one but this device's can be ended, or all but this one;
// «Выйти на всех устройствах» ends this one too.

/**
 * Where the session is: the city beside the network when the server knows it (ADR 059), else the network alone. The
 * word and the network are joined by a no-break space, so a narrow screen wraps before «сеть», not after it.
 */
function whereOf({ place, address }: SessionView): string {
  if (!place) return address ? `Сеть\u00a0${address}` : 'Сеть неизвестна';
  return address ? `${place} · сеть\u00a0${address}` : place;
}

function SessionItem({ session, busy, onEnd }: { session: SessionView; busy: boolean; onEnd: (id: string) => void }) {
  return (
    <li className="sessions__item" data-testid="session">
      <div className="sessions__what">
        <strong>{session.device}</strong>
        {session.current && <span className="badge">Это устройство</span>}
        <div className="field__hint">
          {session.os} · {session.browser}
        </div>
        <div className="field__hint">
          {whereOf(session)} ·{' '}
          {session.current ? (
            'активен сейчас'
          ) : (
            <>
              был активен{' '}
              <time dateTime={session.last_seen_at} title={formatDateTime(session.last_seen_at)} suppressHydrationWarning>
                {formatRelative(session.last_seen_at)}
              </time>
            </>
          )}
        </div>
      </div>
      {!session.current && (
        <button type="button" className="btn btn--ghost" disabled={busy} onClick={() => onEnd(session.id)} aria-label={`Завершить сеанс: ${session.device}, ${session.browser}`}>
          Завершить
        </button>
      )}
    </li>
  );
}

/** The list of sessions, ending them, and signing out everywhere. */
export function SessionsCard({ sessions }: { sessions: SessionView[] }) {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const others = sessions.filter((s) => !s.current).length;

  async function end(id: string) {
    setBusy(true);
    const { error } = await api.write('auth.endSession', { params: { id } });
    setBusy(false);
    if (error) return toast(error.message);
    toast('Сеанс завершён', { type: 'success' });
    await revalidator.revalidate();
  }

  async function endOthers() {
    setBusy(true);
    const { data, error } = await api.write('auth.endOtherSessions');
    setBusy(false);
    if (error) return toast(error.message);
    // The other sessions' tokens and this device's old one stop working: this device goes on with the fresh one.
    renewToken(data.result);
    toast('Все другие сеансы завершены', { type: 'success' });
    await revalidator.revalidate();
  }

  async function logoutEverywhere() {
    const { error } = await api.write('auth.logoutAll');
    if (error) return toast(error.message);
    logout();
  }

  return (
    <section className="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title" className="card__title">
        Сеансы
      </h2>
      <p className="field__hint">Устройства, на которых выполнен вход в аккаунт. Незнакомый сеанс завершите и смените пароль.</p>
      <ul className="sessions" aria-label="Активные сеансы">
        {sessions.map((s) => (
          <SessionItem key={s.id} session={s} busy={busy} onEnd={end} />
        ))}
      </ul>
      <div className="sessions__actions">
        {others > 0 && (
          <button type="button" className="btn btn--ghost" disabled={busy} onClick={endOthers}>
            Завершить все, кроме этого
          </button>
        )}
        <button type="button" className="btn btn--ghost" onClick={logoutEverywhere}>
          Выйти на всех устройствах
        </button>
      </div>
    </section>
  );
}
