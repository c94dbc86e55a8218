import { useState } from 'react';
import { MailCheck } from '../components/ui/icons.tsx';
import type { Route } from './+types/verify';
import { api } from '../lib/api.ts';
import { toast } from '../lib/toast-store.ts';
import { pageMeta } from '../lib/meta.ts';
import { useShell } from '../lib/use-shell.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { NextSteps } from '../features/auth/index.ts';

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Подтверждение аккаунта');

export default function VerifyPage() {
  const { user } = useShell();
  const [sent, setSent] = useState(false);
  if (!user) return null;

  async function resend() {
    const { error } = await api.write('auth.resendConfirmation');
    if (error) return toast(error.message);
    setSent(true);
    toast('Письмо отправлено', { type: 'success' });
  }

  return (
    <section className="page">
      <div className="form form--card">
        <MailCheck size={40} aria-hidden className="auth-page__icon" />
        <h1 className="auth-page__title">Подтверждение аккаунта</h1>
        {user.email_confirmed ? (
          <>
            <p className="form-success">Email {user.email} подтверждён. Вам доступны все возможности площадки.</p>
            <NextSteps user={user} />
          </>
        ) : (
          <>
            <p>
              Мы отправили письмо со ссылкой на <strong>{user.email}</strong>. Перейдите по ней, чтобы подтвердить адрес: до
              этого нельзя публиковать услуги и проекты, откликаться, заказывать и выводить деньги.
            </p>
            <button type="button" className="btn btn--ghost btn--block" onClick={resend} disabled={sent}>
              {sent ? 'Письмо отправлено' : 'Отправить письмо ещё раз'}
            </button>
            <p className="field__hint">
              Неверный адрес? Измените его в <AppLink to="/profile/settings">настройках</AppLink>.
            </p>
          </>
        )}
      </div>
    </section>
  );
}
