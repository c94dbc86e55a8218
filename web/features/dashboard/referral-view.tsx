import { useRef, useState } from 'react';
import type { ReferralPage } from '#contract/dashboard';
import { STORAGE_KEYS } from '#contract/constants';
import { toast } from '../../lib/toast-store.ts';
import { basisPoints, count, monthsWord, peopleWord, rubles } from './format.ts';
import { DateCell } from '../../components/ui/date-cell.tsx';

// /profile/referral: the person's link with a copy button, the terms, the totals, the people they brought and
// every reward with the order it came from.

const SIDE_LABELS = { customer: 'Покупатель', seller: 'Продавец' } as const;

/** The link a newcomer opens: any page with ?referralCode= (SPEC §2); the home page here. */
export const referralLink = (siteUrl: string, code: string) => `${siteUrl.endsWith('/') ? siteUrl.slice(0, -1) : siteUrl}/?${STORAGE_KEYS.referralCode}=${encodeURIComponent(code)}`;

export function ReferralLink({ link }: { link: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the link is selected for the person to copy.
      input.current?.select();
      toast('Не удалось скопировать: ссылка выделена, скопируйте её вручную', { type: 'error' });
      return;
    }
    setCopied(true);
    toast('Ссылка скопирована', { type: 'success' });
  }
  return (
    <div className="ref-link">
      <label className="field__label" htmlFor="referral-link">
        Ваша реферальная ссылка
      </label>
      <div className="ref-link__row">
        <input id="referral-link" ref={input} className="input ref-link__input" value={link} readOnly onFocus={(e) => e.currentTarget.select()} data-testid="referral-link" />
        <button type="button" className="btn btn--primary" onClick={() => void copy()}>
          {copied ? 'Скопировано' : 'Скопировать'}
        </button>
      </div>
    </div>
  );
}

export function ReferralView({ data, link }: { data: ReferralPage; link: string }) {
  const { terms, totals } = data;
  return (
    <>
      <div className="card ref-intro">
        <ReferralLink link={link} />
        <p className="ref-terms">
          Пригласите людей по ссылке: с каждого их завершённого заказа вы получаете {basisPoints(terms.buyer_bp)} от суммы, если они
          покупатель, и {basisPoints(terms.seller_bp)}, если продавец, — {count(terms.months)} {monthsWord(terms.months)} с их регистрации. Вознаграждение
          поступает на баланс, когда заказ завершён, и выводится, как любые деньги на балансе.
        </p>
      </div>

      <dl className="dash-totals">
        <div className="card dash-total">
          <dt>Приглашено</dt>
          <dd>
            {count(totals.people)} {peopleWord(totals.people)}
          </dd>
        </div>
        <div className="card dash-total">
          <dt>Заказов с вознаграждением</dt>
          <dd>{count(totals.orders)}</dd>
        </div>
        <div className="card dash-total">
          <dt>Заработано всего</dt>
          <dd data-testid="referral-total">{rubles(totals.amount)}</dd>
        </div>
        <div className="card dash-total">
          <dt>В этом месяце</dt>
          <dd>{rubles(totals.month)}</dd>
        </div>
      </dl>

      <h2 className="ref-subtitle">Приглашённые</h2>
      {data.people.length ? (
        <table className="table ref-table" data-testid="referral-people">
          <thead>
            <tr>
              <th scope="col">Имя</th>
              <th scope="col">Роль</th>
              <th scope="col">Регистрация</th>
              <th scope="col">Вознаграждения до</th>
              <th scope="col">Заработано</th>
            </tr>
          </thead>
          <tbody>
            {data.people.map((p) => (
              <tr key={p._id}>
                <td data-label="Имя">{p.name}</td>
                <td data-label="Роль">{SIDE_LABELS[p.role]}</td>
                <DateCell label="Регистрация" date={p.joined_at} />
                <DateCell label="Вознаграждения до" date={p.rewards_until} />
                <td data-label="Заработано">{rubles(p.earned)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="page__empty">По вашей ссылке пока никто не зарегистрировался.</p>
      )}
      {totals.people > data.people.length && <p className="muted">Показаны последние {data.people.length} из {count(totals.people)}.</p>}

      <h2 className="ref-subtitle">Вознаграждения</h2>
      {data.earnings.length ? (
        <table className="table ref-table" data-testid="referral-earnings">
          <thead>
            <tr>
              <th scope="col">Дата</th>
              <th scope="col">Заказ</th>
              <th scope="col">Приглашённый</th>
              <th scope="col">Сумма заказа</th>
              <th scope="col">Ставка</th>
              <th scope="col">Вознаграждение</th>
            </tr>
          </thead>
          <tbody>
            {data.earnings.map((e) => (
              <tr key={e.seq}>
                <DateCell label="Дата" date={e.created_at} />
                <td data-label="Заказ">№{e.order_number}</td>
                <td data-label="Приглашённый">
                  <span>
                    {e.person.name} <span className="muted">({SIDE_LABELS[e.side].toLowerCase()})</span>
                  </span>
                </td>
                <td data-label="Сумма заказа">{rubles(e.price)}</td>
                <td data-label="Ставка">{basisPoints(e.rate_bp)}</td>
                <td data-label="Вознаграждение" className="fin-plus">
                  +{rubles(e.amount)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="page__empty">Вознаграждений пока нет: они появятся, когда приглашённые завершат заказы.</p>
      )}
    </>
  );
}
