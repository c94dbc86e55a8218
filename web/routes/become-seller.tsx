import { useState } from 'react';
import { BadgeCheck, Briefcase, Wallet } from '../components/ui/icons.tsx';
import type { Route } from './+types/become-seller';
import { api } from '../lib/api.ts';
import { toast } from '../lib/toast-store.ts';
import { pageMeta } from '../lib/meta.ts';
import { useShell } from '../lib/use-shell.ts';
import { AppLink } from '../components/ui/app-link.tsx';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, 'Стать продавцом', 'Продавайте свои услуги на бирже: безопасная сделка, выплаты в рублях и криптовалюте.');

export default function BecomeSellerPage() {
  const { user } = useShell();
  const [busy, setBusy] = useState(false);
  const isSeller = user?.roles.includes('seller');

  async function become() {
    setBusy(true);
    const { error } = await api.write('users.becomeSeller');
    if (error) {
      setBusy(false);
      return toast(error.message);
    }
    // The whole interface switches to selling: load it afresh on the sellers' home.
    window.location.assign('/projects');
  }

  return (
    <section className="page">
      <div className="card">
        <h1 className="page__title">Стать продавцом</h1>
        <p>Размещайте услуги, откликайтесь на проекты заказчиков и получайте оплату через безопасную сделку.</p>
        <ul className="benefits">
          <li>
            <Briefcase aria-hidden /> Заказы по вашим услугам и проекты заказчиков в одном месте
          </li>
          <li>
            <Wallet aria-hidden /> Деньги резервируются до начала работы и приходят после её приёмки
          </li>
          <li>
            <BadgeCheck aria-hidden /> Рейтинг и уровень растут вместе с выполненными заказами
          </li>
        </ul>
        {!user ? (
          <AppLink to="/reg?role=seller" className="btn btn--primary">
            Зарегистрироваться как продавец
          </AppLink>
        ) : isSeller ? (
          <p className="form-success">Вы уже продавец. Переключайтесь между покупками и продажами в шапке сайта.</p>
        ) : (
          <button type="button" className="btn btn--primary" onClick={become} disabled={busy}>
            Стать продавцом
          </button>
        )}
      </div>
    </section>
  );
}
