import type { Route } from './+types/profile-notifications';
import { pageMeta } from '../lib/meta.ts';
import { NotificationsList, type NotificationsPageData } from '../features/notifications/index.ts';
import '../styles/notifications.css';

// /profile/notifications (ADR 030): every event that concerned the person, newest first, with read marks.

export async function loader({ context }: Route.LoaderArgs): Promise<NotificationsPageData> {
  const answer = await context.read('notifications.list', { query: { limit: 20 } });
  return answer.ok
    ? { items: answer.body.result, next: answer.body.next, unread: answer.body.unread, failed: false }
    : { items: [], next: null, unread: 0, failed: true };
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, 'Уведомления'),
  { name: 'robots', content: 'noindex' },
];

export default function NotificationsPage({ loaderData }: Route.ComponentProps) {
  return (
    <section className="page">
      <h1 className="page__title">Уведомления</h1>
      <NotificationsList initial={loaderData} />
    </section>
  );
}
