import { useEffect, useState } from 'react';
import { useLoaderData, useRevalidator, useSearchParams } from 'react-router';
import type { Route } from './+types/profile-reviews';
import type { PendingReview, Review } from '#contract/reviews';
import { api } from '../lib/api.ts';
import { formatDate } from '../lib/dates.ts';
import { pageMeta } from '../lib/meta.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { AnswerForm, personName, ReviewForm, ReviewItem } from '../features/reviews/index.ts';
// The reviews pages' stylesheet (ADR 024).
import '../styles/reviews.css';
import { ShowMore } from '../components/ui/show-more.tsx';

// /profile/reviews (ADR 029): the completed orders waiting for the person's review («Ждут вашего отзыва», each with
// its form; ?order= opens one), then the reviews received (each with the one answer) and given (hidden ones say
// until when), as ?box=.

type Box = 'received' | 'given';
const BOXES: { value: Box; label: string }[] = [
  { value: 'received', label: 'Полученные' },
  { value: 'given', label: 'Оставленные' },
];

interface Page {
  box: Box;
  pending: PendingReview[];
  reviews: Review[];
  total: number;
  next: string | null;
  failed: boolean;
}

const load = (box: Box, cursor?: string) => api.read('reviews.mine', { query: { box, ...(cursor ? { cursor } : {}), limit: 10 } }, { fresh: true });

export async function clientLoader({ url }: Route.ClientLoaderArgs): Promise<Page> {
  const box: Box = url.searchParams.get('box') === 'given' ? 'given' : 'received';
  try {
    const [pending, list] = await Promise.all([api.read('reviews.pending', {}, { fresh: true }), load(box)]);
    return { box, pending: pending.result, reviews: list.result, total: list.total ?? list.result.length, next: list.next, failed: false };
  } catch {
    return { box, pending: [], reviews: [], total: 0, next: null, failed: true };
  }
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <section className="page" aria-busy="true">
      <h1 className="page__title">Отзывы</h1>
      {[0, 1, 2].map((i) => (
        <div key={i} className="skeleton" style={{ height: 96, marginBottom: 12 }} />
      ))}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, 'Отзывы'), { name: 'robots', content: 'noindex' }];

function PendingItem({ item, startOpen, onDone }: { item: PendingReview; startOpen: boolean; onDone: () => void }) {
  const [open, setOpen] = useState(startOpen);
  const name = personName(item.target);
  return (
    <li className="card pending-review" data-testid="pending-review" id={`order-${item.order_id}`}>
      <div className="pending-review__head">
        <div>
          <p className="pending-review__title">
            Заказ №{item.number} · {item.title}
          </p>
          <p className="muted pending-review__meta">
            {item.role === 'customer' ? 'Исполнитель' : 'Заказчик'}: {name} · завершён {formatDate(item.completed_at)} · отзыв можно оставить до {formatDate(item.until)}
            {item.other_reviewed && ' · другая сторона уже оставила отзыв'}
          </p>
        </div>
        {!open && (
          <button type="button" className="btn btn--primary btn--sm" onClick={() => setOpen(true)}>
            Оставить отзыв
          </button>
        )}
      </div>
      {open && <ReviewForm orderId={item.order_id} role={item.role} targetName={name} onDone={onDone} />}
    </li>
  );
}

export default function ProfileReviewsPage() {
  const data = useLoaderData<typeof clientLoader>();
  const [params] = useSearchParams();
  const revalidator = useRevalidator();
  const [extra, setMore] = useState<{ of: Page; reviews: Review[]; next: string | null } | null>(null);
  const more = extra?.of === data ? extra : null;
  // Answers given on this page, shown at once (the list is read again on the next visit).
  const [answered, setAnswered] = useState<Record<string, Review>>({});
  const [loadingMore, setLoadingMore] = useState(false);
  const wanted = params.get('order');

  useEffect(() => {
    if (wanted) document.getElementById(`order-${wanted}`)?.scrollIntoView({ block: 'center' });
  }, [wanted]);

  const reviews = [...data.reviews, ...(more?.reviews ?? [])].map((r) => answered[r._id] ?? r);
  const next = more ? more.next : data.next;

  async function loadMore() {
    if (!next) return;
    setLoadingMore(true);
    try {
      const answer = await load(data.box, next);
      setMore({ of: data, reviews: [...(more?.reviews ?? []), ...answer.result], next: answer.next });
    } finally {
      setLoadingMore(false);
    }
  }

  const wantedDone = wanted && !data.pending.some((p) => p.order_id === wanted);

  return (
    <section className="page reviews-page">
      <h1 className="page__title">Отзывы</h1>
      {data.failed ? (
        <div className="empty-state" role="alert">
          <p>Не удалось загрузить отзывы.</p>
          <button type="button" className="btn btn--primary" onClick={() => void revalidator.revalidate()}>
            Повторить
          </button>
        </div>
      ) : (
        <>
          {wantedDone && (
            <p className="notice" role="note">
              По этому заказу отзыв уже оставлен или срок для отзыва истёк.
            </p>
          )}
          {data.pending.length > 0 && (
            <section className="reviews-page__pending" aria-labelledby="pending-title">
              <h2 id="pending-title">Ждут вашего отзыва</h2>
              <ul className="pending-reviews">
                {data.pending.map((item) => (
                  <PendingItem key={item.order_id} item={item} startOpen={item.order_id === wanted} onDone={() => void revalidator.revalidate()} />
                ))}
              </ul>
            </section>
          )}
          <nav className="tabs" aria-label="Какие отзывы">
            <ul>
              {BOXES.map((b) => (
                <li key={b.value}>
                  <AppLink to={b.value === 'received' ? '/profile/reviews' : `/profile/reviews?box=${b.value}`} className="tabs__link" aria-current={b.value === data.box ? 'page' : undefined}>
                    {b.label}
                  </AppLink>
                </li>
              ))}
            </ul>
          </nav>
          {reviews.length === 0 ? (
            <div className="empty-state">
              <p>{data.box === 'received' ? 'Здесь появятся отзывы о вас: после завершённых заказов их оставляют обе стороны.' : 'Здесь появятся отзывы, которые вы оставите.'}</p>
            </div>
          ) : (
            <ul className="reviews__list">
              {reviews.map((r) => (
                <li key={r._id}>
                  <ReviewItem review={r} about={data.box === 'given'}>
                    {data.box === 'given' && !r.published && (
                      <p className="muted review__hidden" data-testid="review-hidden">
                        Скрыт до отзыва другой стороны{r.publish_at ? ` или до ${formatDate(r.publish_at)}` : '.'}
                      </p>
                    )}
                    {r.can_answer && <AnswerForm review={r} onDone={(updated) => setAnswered((a) => ({ ...a, [updated._id]: updated }))} />}
                  </ReviewItem>
                </li>
              ))}
            </ul>
          )}
          {next && (
            <ShowMore busy={loadingMore} onClick={() => void loadMore()} />
          )}
        </>
      )}
    </section>
  );
}
