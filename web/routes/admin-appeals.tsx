import { useLoaderData } from 'react-router';
import type { Route } from './+types/admin-appeals';
import type { Appeal } from '#contract/appeals';
import { APPEAL_STATUSES, APPEAL_SUBJECTS, type AppealStatus, type AppealSubject } from '#contract/appeal-constants';
import { api } from '../lib/api.ts';
import { pageMeta } from '../lib/meta.ts';
import { AdminAppeals } from '../features/appeals/index.ts';

// /admin/appeals: the appeals queue (new ones first as the default tab), by state, subject and words.

export async function clientLoader({ url }: Route.ClientLoaderArgs): Promise<{ appeals: Appeal[]; total: number; next: string | null; failed: boolean }> {
  const status = url.searchParams.get('status') ?? 'new';
  const subject = url.searchParams.get('subject');
  const q = url.searchParams.get('q')?.trim();
  const cursor = url.searchParams.get('cursor');
  try {
    const answer = await api.read(
      'admin.appeals.list',
      {
        query: {
          ...((APPEAL_STATUSES as readonly string[]).includes(status) ? { status: status as AppealStatus } : {}),
          ...((APPEAL_SUBJECTS as readonly string[]).includes(subject ?? '') ? { subject: subject as AppealSubject } : {}),
          ...(q ? { q } : {}),
          ...(cursor ? { cursor } : {}),
          limit: 20,
        },
      },
      { fresh: true },
    );
    return { appeals: answer.result, total: answer.total ?? answer.result.length, next: answer.next, failed: false };
  } catch {
    return { appeals: [], total: 0, next: null, failed: true };
  }
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <section className="page" aria-busy="true">
      <h1 className="page__title">Обращения</h1>
      <div className="skeleton" style={{ height: 40, marginBottom: 16 }} />
      <div className="skeleton" style={{ height: 320 }} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Обращения');

export default function AdminAppealsPage() {
  const data = useLoaderData<typeof clientLoader>();
  return <AdminAppeals {...data} />;
}
