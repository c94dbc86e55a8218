import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Bid } from '#contract/bids';
import type { BidStatus } from '#contract/money';
import { api } from '../../lib/api.ts';
import { activeRole } from '../../lib/current-user.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { AcceptButton } from './accept.tsx';
import { BidCard } from './bid-card.tsx';
import { clearBidsFlag } from './flag.ts';
import { acceptable, bidTabs, myBidsQuery } from './bid-queries.ts';

// /profile/bids: a seller's own bids with their states, or the bids a customer received on their projects.

export interface BidsPageData {
  role: 'seller' | 'customer';
  bids: Bid[];
  next: string | null;
  total: number;
  failed: boolean;
}

export async function loadMyBids(url: URL): Promise<BidsPageData> {
  try {
    const role = (await activeRole()) === 'seller' ? 'seller' : 'customer';
    const answer = await api.read(role === 'seller' ? 'bids.mine' : 'bids.received', { query: myBidsQuery(url) }, { fresh: true });
    return { role, bids: answer.result, next: answer.next, total: answer.total ?? answer.result.length, failed: false };
  } catch {
    return { role: 'seller', bids: [], next: null, total: 0, failed: true };
  }
}

export function MyBids({ role, bids, next, total, failed }: BidsPageData) {
  const [params] = useSearchParams();
  // Pages added with «Показать ещё», for the first page they follow (a new first page starts again).
  const [added, setAdded] = useState<{ after: Bid[]; bids: Bid[]; next: string | null }>({ after: bids, bids: [], next });
  const extra = added.after === bids ? added : { after: bids, bids: [], next };
  const status = params.get('status') ?? '';
  // A customer who opens the page has seen their new bids.
  useEffect(() => {
    if (role === 'customer') void clearBidsFlag();
  }, [role]);

  const more = async () => {
    if (!extra.next) return;
    const query = { limit: 20, cursor: extra.next, ...(status ? { status: status as BidStatus } : {}) };
    const answer = await api.read(role === 'seller' ? 'bids.mine' : 'bids.received', { query }, { fresh: true });
    setAdded({ after: bids, bids: [...extra.bids, ...answer.result], next: answer.next });
  };
  const shown = [...bids, ...extra.bids];

  return (
    <section className="page">
      <div className="page__head">
        <h1 className="page__title">Отклики</h1>
      </div>
      <p className="field__hint">{role === 'seller' ? 'Ваши отклики на проекты заказчиков.' : 'Отклики исполнителей на ваши проекты. Выберите исполнителя — заказ будет создан, останется его оплатить.'}</p>
      <nav className="tabs" aria-label="Состояние">
        <ul>
          {bidTabs(role).map((t) => (
            <li key={t.value}>
              <AppLink to={t.value ? `?status=${t.value}` : '/profile/bids'} className="tabs__link" aria-current={t.value === status ? 'page' : undefined}>
                {t.label}
              </AppLink>
            </li>
          ))}
        </ul>
      </nav>
      {failed ? (
        <p className="empty-state" role="alert">
          Не удалось загрузить отклики. Обновите страницу.
        </p>
      ) : shown.length === 0 ? (
        <div className="empty-state">
          {role === 'seller' ? (
            <>
              <p>Откликов пока нет.</p>
              <AppLink to="/projects" className="btn btn--primary">
                Найти проект
              </AppLink>
            </>
          ) : (
            <>
              <p>На ваши проекты пока никто не откликнулся.</p>
              <AppLink to="/profile/items" className="btn btn--ghost">
                Мои проекты
              </AppLink>
            </>
          )}
        </div>
      ) : (
        <>
          <p className="field__hint" aria-live="polite">
            Всего: {total}
          </p>
          <div className="bid-list" data-testid="my-bids">
            {shown.map((bid) => (
              <BidCard
                key={bid._id}
                bid={bid}
                show={role === 'seller' ? 'project' : 'both'}
                actions={role === 'customer' && acceptable(bid) ? <AcceptButton bid={bid} /> : undefined}
              />
            ))}
          </div>
          {extra.next && (
            <button type="button" className="btn btn--ghost bid-list__more" onClick={() => void more()}>
              Показать ещё
            </button>
          )}
        </>
      )}
    </section>
  );
}
