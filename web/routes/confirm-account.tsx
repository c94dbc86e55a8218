import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Route } from './+types/confirm-account';
import { api } from '../lib/api.ts';
import { pageMeta } from '../lib/meta.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { NextSteps } from '../features/auth/index.ts';
import { useShell } from '../lib/use-shell.ts';

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Подтверждение email');

type State = { kind: 'pending' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string };

export default function ConfirmAccountPage() {
  const [params] = useSearchParams();
  const { user } = useShell();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<State>(() =>
    token ? { kind: 'pending' } : { kind: 'failed', message: 'Ссылка недействительна или устарела' },
  );

  useEffect(() => {
    if (!token) return;
    let live = true;
    api.write('auth.confirm', { body: { token } }).then(({ data, error }) => {
      if (live) setState(data ? { kind: 'done', message: data.result.message } : { kind: 'failed', message: error.message });
    });
    return () => void (live = false);
  }, [token]);

  return (
    <section className="page">
      <div className="form form--card" aria-live="polite">
        <h1 className="auth-page__title">Подтверждение email</h1>
        {state.kind === 'pending' && <p>Проверяем ссылку…</p>}
        {state.kind === 'done' && (
          <>
            <p className="form-success">{state.message}</p>
            <NextSteps user={user} />
          </>
        )}
        {state.kind === 'failed' && (
          <>
            <p className="form-error">{state.message}</p>
            <AppLink to="/verify" className="btn btn--ghost btn--block">
              Отправить новую ссылку
            </AppLink>
          </>
        )}
      </div>
    </section>
  );
}
