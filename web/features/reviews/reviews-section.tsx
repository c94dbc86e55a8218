import { useState } from 'react';
import type { Review } from '#contract/reviews';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { count, FORMS } from '../catalog/index.ts';
import { ReviewItem } from './review-item.tsx';
import { ShowMore } from '../../components/ui/show-more.tsx';

export interface ReviewsPage {
  result: Review[];
  total: number;
  next: string | null;
}

/**
 * The reviews of a service page or a person's page: the first page comes with the page (server-rendered), further
 * ones on "Показать ещё".
 */
export function ReviewsSection({ source, id, initial, showService = true }: { source: 'reviews.ofService' | 'reviews.ofUser'; id: string; initial: ReviewsPage; showService?: boolean }) {
  const [more, setMore] = useState<{ of: ReviewsPage; items: Review[]; next: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const extra = more?.of === initial ? more : null;
  const items = [...initial.result, ...(extra?.items ?? [])];
  const next = extra ? extra.next : initial.next;

  async function loadMore() {
    if (!next) return;
    setBusy(true);
    try {
      const answer = await api.read(source, { params: { id }, query: { cursor: next, limit: 10 } });
      setMore({ of: initial, items: [...(extra?.items ?? []), ...answer.result], next: answer.next });
    } catch {
      toast('Не удалось загрузить отзывы');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="detail__section reviews" id="reviews" aria-labelledby="reviews-title">
      <h2 id="reviews-title">
        Отзывы <span className="muted">{initial.total > 0 ? `· ${count(initial.total, FORMS.reviews)}` : ''}</span>
      </h2>
      {items.length === 0 ? (
        <p className="muted">Отзывов пока нет.</p>
      ) : (
        <ul className="reviews__list">
          {items.map((r) => (
            <li key={r._id}>
              <ReviewItem review={r} showService={showService} />
            </li>
          ))}
        </ul>
      )}
      {next && (
        <ShowMore busy={busy} onClick={() => void loadMore()} />
      )}
    </section>
  );
}
