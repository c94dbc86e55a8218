import type { Route } from './+types/unsubscribe';
import { pageMeta } from '../lib/meta.ts';
import { Unsubscribe, type UnsubscribeData } from '../features/notifications/index.ts';

// /unsubscribe?token=… (ADR 030): the link of a letter. It asks before switching the letters off, so a mail
// scanner that opens links switches nothing.

export async function loader({ context, url }: Route.LoaderArgs): Promise<UnsubscribeData> {
  const token = url.searchParams.get('token') ?? '';
  const invalid = { token: null, error: 'Ссылка для отписки недействительна' } as const;
  if (!token) return invalid;
  const answer = await context.read('notifications.unsubscribeInfo', { query: { token } });
  return answer.ok ? { token, ...answer.body.result } : { token: null, error: answer.body.message || invalid.error };
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, 'Отписка от писем'),
  { name: 'robots', content: 'noindex' },
];

export default function UnsubscribePage({ loaderData }: Route.ComponentProps) {
  return (
    <section className="page">
      <div className="form form--card" aria-live="polite">
        <h1 className="auth-page__title">Отписка от писем</h1>
        <Unsubscribe data={loaderData} />
      </div>
    </section>
  );
}
