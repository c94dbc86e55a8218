import { useState } from 'react';
import { api } from '../../lib/api.ts';

export type UnsubscribeData = { token: string; kind: string; title: string } | { token: null; error: string };

/** /unsubscribe?token=…: what the letter's link switches off, and the button that does it, without signing in. */
export function Unsubscribe({ data }: { data: UnsubscribeData }) {
  const [state, setState] = useState<'ask' | 'sending' | 'done'>('ask');
  const [error, setError] = useState<string | null>(null);
  if (data.token === null)
    return (
      <p className="form-error" data-testid="unsubscribe-error">
        {data.error}
      </p>
    );
  const { token, title } = data;

  async function confirm() {
    setState('sending');
    const { error: failed } = await api.write('notifications.unsubscribe', { body: { token } });
    if (failed) {
      setError(failed.message);
      setState('ask');
    } else setState('done');
  }

  if (state === 'done') {
    return (
      <div data-testid="unsubscribe-done">
        <p>Готово: письма «{title}» больше не будут приходить.</p>
        <p>Уведомления на сайте останутся. Включить письма снова можно в настройках профиля.</p>
      </div>
    );
  }
  return (
    <div>
      <p>Отписаться от писем «{title}»? Уведомления на сайте останутся.</p>
      {error && <p className="form-error">{error}</p>}
      <button type="button" className="btn btn--primary" onClick={() => void confirm()} disabled={state === 'sending'}>
        Отписаться
      </button>
    </div>
  );
}
