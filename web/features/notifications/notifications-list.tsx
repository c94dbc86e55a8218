import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../lib/api.ts';
import { formatRelative } from '../../lib/dates.ts';
import type { Notification } from '#contract/notifications';
import { onNotification, setUnreadNotifications, useUnreadNotifications } from './store.ts';
import { countLine, isPlainClick, markAllRead, markRead, unreadAfterOpen, withArrival, withPage } from './list.ts';

export interface NotificationsPageData {
  items: Notification[];
  next: string | null;
  unread: number;
  failed: boolean;
}

/** /profile/notifications: newest first, new ones arriving live at the top; opening one marks it read. */
export function NotificationsList({ initial }: { initial: NotificationsPageData }) {
  const [items, setItems] = useState(initial.items);
  const [next, setNext] = useState(initial.next);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(
    initial.failed ? 'Не удалось загрузить уведомления. Обновите страницу через минуту.' : null,
  );
  const unread = useUnreadNotifications();
  const navigate = useNavigate();

  useEffect(() => setUnreadNotifications(initial.unread), [initial.unread]);
  useEffect(
    () => onNotification((n) => setItems((list) => withArrival(list, n))),
    [],
  );

  async function more() {
    if (!next) return;
    setLoading(true);
    try {
      const answer = await api.read('notifications.list', { query: { cursor: next, limit: 20 } }, { fresh: true });
      setItems((list) => withPage(list, answer.result));
      setNext(answer.next);
    } catch {
      setError('Не удалось загрузить ещё. Попробуйте снова.');
    } finally {
      setLoading(false);
    }
  }

  async function readAll() {
    const { data, error: failed } = await api.write('notifications.readAll');
    if (failed) return setError(failed.message);
    setItems(markAllRead);
    setUnreadNotifications(data.result.unread);
  }

  function open(n: Notification) {
    if (!n.read) {
      setItems((list) => markRead(list, n._id));
      void api.write('notifications.read', { params: { id: n._id } });
      setUnreadNotifications(unreadAfterOpen(unread));
    }
    void navigate(n.link);
  }

  return (
    <>
      {items.length > 0 && (
        <div className="notifications__bar">
          <p className="notifications__count" data-testid="notifications-count">
            {countLine(unread)}
          </p>
          {unread > 0 && (
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => void readAll()}>
              Отметить все прочитанными
            </button>
          )}
        </div>
      )}
      {error && <p className="form-error">{error}</p>}
      {items.length === 0 ? (
        <p className="notifications__empty" data-testid="notifications-empty">
          Уведомлений пока нет. Здесь появятся новые отклики, заказы, оплаты и решения модерации.
        </p>
      ) : (
        <ul className="notifications" data-testid="notifications-list">
          {items.map((n) => (
            <li key={n._id} className={`notifications__item${n.read ? '' : ' notifications__item--unread'}`}>
              <a
                href={n.link}
                className="notifications__link"
                onClick={(e) => {
                  if (!isPlainClick(e)) return;
                  e.preventDefault();
                  open(n);
                }}
              >
                {!n.read && <span className="notifications__dot" aria-label="Новое" />}
                <span className="notifications__text">{n.text}</span>
                <time className="notifications__time" dateTime={n.createdAt}>
                  {formatRelative(n.createdAt)}
                </time>
              </a>
            </li>
          ))}
        </ul>
      )}
      {next && (
        <button
          type="button"
          className="btn btn--ghost notifications__more"
          onClick={() => void more()}
          disabled={loading}
        >
          {loading ? 'Загрузка…' : 'Показать ещё'}
        </button>
      )}
    </>
  );
}
