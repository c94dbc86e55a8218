import { useRevalidator } from 'react-router';
import type { Route } from './+types/admin-privacy';
import { pageMeta } from '../lib/meta.ts';
import { ConsentsTable, DeletionsTable, PublishDocumentForm } from '../features/privacy/index.ts';
import '../styles/payments.css';
import '../styles/admin.css';

// /admin/privacy (ADR 052): the texts in force and a form for a new version of each, the latest consents and the
// deletion requests with their deadlines.

export async function loader({ context }: Route.LoaderArgs) {
  const [documents, consents, deletions] = await Promise.all([
    context.read('admin.privacy.documents', {}),
    context.read('admin.privacy.consents', { query: { page: 1 } }),
    context.read('admin.privacy.deletions', { query: { page: 1 } }),
  ]);
  const all = documents.ok ? documents.body.result : [];
  return {
    current: (['policy', 'consent'] as const).map((kind) => all.find((d) => d.kind === kind)).filter((d) => d !== undefined),
    consents: consents.ok ? consents.body.result : [],
    consentsTotal: consents.ok ? (consents.body.total ?? 0) : 0,
    deletions: deletions.ok ? deletions.body.result : [],
  };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Персональные данные');

export default function AdminPrivacyPage({ loaderData }: Route.ComponentProps) {
  const { current, consents, consentsTotal, deletions } = loaderData;
  const revalidator = useRevalidator();
  return (
    <section className="page">
      <h1 className="page__title">Персональные данные</h1>
      <h2>Запросы на удаление аккаунта</h2>
      <DeletionsTable deletions={deletions} />
      {current.map((d) => (
        <PublishDocumentForm key={`${d.kind}-${d.version}`} current={d} onSaved={() => void revalidator.revalidate()} />
      ))}
      <h2>Согласия ({consentsTotal})</h2>
      <ConsentsTable consents={consents} />
    </section>
  );
}
