import { useState } from 'react';
import { useRevalidator, useSearchParams } from 'react-router';
import { GetForm } from '../../components/ui/get-form.tsx';
import type { Bid } from '#contract/bids';
import { BID_STATUS_TITLES } from '#contract/bid-constants';
import { BID_STATUSES } from '#contract/money';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Price } from '../../components/ui/price.tsx';
import { TextField } from '../../components/ui/form.tsx';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { daysText } from '../catalog/index.ts';
import { displayName, userPath } from '../../lib/people.ts';
import { bidProjectPath, BidStatusBadge } from './format.tsx';
import { adminBidsQuery, withCursor } from './bid-queries.ts';
import { DateCell } from '../../components/ui/date-cell.tsx';

// /admin/bids: every bid, newest first, by state, project and seller; an abusive one can be removed.

export interface AdminBidsData {
  bids: Bid[];
  total: number;
  next: string | null;
  failed: boolean;
}

export async function loadAdminBids(url: URL): Promise<AdminBidsData> {
  const query = adminBidsQuery(url);
  try {
    const answer = await api.read('admin.bids.list', { query }, { fresh: true });
    return { bids: answer.result, total: answer.total ?? answer.result.length, next: answer.next, failed: false };
  } catch {
    return { bids: [], total: 0, next: null, failed: true };
  }
}

export function AdminBids({ bids, total, next, failed }: AdminBidsData) {
  const [params] = useSearchParams();
  const revalidator = useRevalidator();
  const [removing, setRemoving] = useState<Bid | null>(null);
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    if (!removing) return;
    setBusy(true);
    const { error } = await api.write('admin.bids.remove', { params: { id: removing._id } });
    setBusy(false);
    setRemoving(null);
    if (error) return void toast(error.message);
    toast('Отклик удалён', { type: 'success' });
    revalidator.revalidate();
  };

  return (
    <section className="page">
      <h1 className="page__title">Отклики</h1>
      <GetForm className="toolbar bid-filters" role="search">
        <div className="field">
          <label htmlFor="bid-status" className="field__label">
            Состояние
          </label>
          <select id="bid-status" name="status" className="input" defaultValue={params.get('status') ?? ''}>
            <option value="">Все</option>
            {BID_STATUSES.map((s) => (
              <option key={s} value={s}>
                {BID_STATUS_TITLES[s]}
              </option>
            ))}
          </select>
        </div>
        <TextField label="ID проекта" name="project" defaultValue={params.get('project') ?? ''} placeholder="uuid" />
        <TextField label="ID продавца" name="seller" defaultValue={params.get('seller') ?? ''} placeholder="uuid" />
        <button type="submit" className="btn btn--primary">
          Найти
        </button>
        {(params.get('status') || params.get('project') || params.get('seller')) && (
          <AppLink to="/admin/bids" className="btn btn--ghost">
            Сбросить
          </AppLink>
        )}
      </GetForm>
      {failed ? (
        <p className="empty-state" role="alert">
          Не удалось загрузить список.
        </p>
      ) : bids.length === 0 ? (
        <p className="empty-state">Откликов не нашлось.</p>
      ) : (
        <>
          <p className="field__hint">Найдено: {total}</p>
          <table className="table admin-bids">
            <thead>
              <tr>
                <th scope="col">Проект</th>
                <th scope="col">Продавец</th>
                <th scope="col">Цена и срок</th>
                <th scope="col">Состояние</th>
                <th scope="col">Создан</th>
                <th scope="col">Действия</th>
              </tr>
            </thead>
            <tbody>
              {bids.map((bid) => (
                <tr key={bid._id}>
                  <td data-label="Проект">
                    <AppLink to={bidProjectPath(bid)}>{bid.project.title}</AppLink>
                    <p className="admin-bids__comment">{bid.comment}</p>
                  </td>
                  <td data-label="Продавец">
                    <AppLink to={userPath(bid.seller._id)}>{displayName(bid.seller)}</AppLink>{' '}
                    <AppLink to={`?seller=${bid.seller._id}`} className="admin-bids__filter" aria-label={`Все отклики ${displayName(bid.seller)}`}>
                      все
                    </AppLink>
                  </td>
                  <td data-label="Цена и срок">
                    <Price kopecks={bid.price} />, {daysText(bid.days)}
                  </td>
                  <td data-label="Состояние">
                    <BidStatusBadge status={bid.status} />
                  </td>
                  <DateCell label="Создан" date={bid.created_at} />
                  <td data-label="Действия">
                    {bid.status !== 'accepted' && (
                      <button type="button" className="btn btn--ghost btn--small" onClick={() => setRemoving(bid)}>
                        Удалить
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {next && (
            <AppLink to={withCursor(params, next!)} className="btn btn--ghost">
              Дальше
            </AppLink>
          )}
        </>
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Удалить отклик?"
        text={removing ? `Отклик ${displayName(removing.seller)} на «${removing.project.title}» будет удалён без возврата. Действие попадёт в журнал.` : ''}
        confirmLabel="Удалить"
        danger
        busy={busy}
        onConfirm={remove}
        onClose={() => setRemoving(null)}
      />
    </section>
  );
}
