import { data as answer, useLoaderData, useRevalidator } from 'react-router';
import type { Route } from './+types/admin-project-edit';
import { api } from '../lib/api.ts';
import { toast } from '../lib/toast-store.ts';
import { formatRelative } from '../lib/dates.ts';
import { pageMeta } from '../lib/meta.ts';
import { pageNotFound } from '../lib/guards.ts';
import { Breadcrumbs } from '../components/ui/breadcrumbs.tsx';
import { AppLink } from '../components/ui/app-link.tsx';
import { ProjectForm, projectToValues } from '../features/items/index.ts';
import { ModerationPanel, ProjectPreview } from '../features/moderation/index.ts';
import { auditActionLabel } from '#contract/audit-constants';

// /admin/projects/{id}/edit: hide or restore a project, correct its fields, see what moderators did with it.

// The document request checks the project exists (HTTP 404 otherwise, ADR 038); the page's data is the browser's.
export async function loader({ params, context }: Route.LoaderArgs) {
  const res = await context.read('admin.projects.get', { params: { id: params.id } });
  if (res.status >= 500) throw answer('Server error', { status: 500 });
  if (!res.ok) throw pageNotFound();
  return null;
}

export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  try {
    return (await api.read('admin.projects.get', { params: { id: params.id } }, { fresh: true })).result;
  } catch {
    throw pageNotFound();
  }
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <section className="page" aria-busy="true">
      <h1 className="page__title">Редактирование проекта</h1>
      <div className="skeleton" style={{ height: 160, marginBottom: 16 }} />
      <div className="skeleton" style={{ height: 420 }} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches, data }) =>
  pageMeta(matches, data ? `Проект: ${data.project.title}` : 'Редактирование проекта');

export default function AdminProjectEditPage() {
  const { project, audit } = useLoaderData<typeof clientLoader>();
  const revalidator = useRevalidator();
  return (
    <section className="page">
      <Breadcrumbs items={[{ label: 'Проекты', to: '/admin/projects' }, { label: project.title }]} />
      <h1 className="page__title">Редактирование проекта</h1>
      <ModerationPanel
        kind="project"
        item={project}
        owner={project.customer}
        ownerNote={project.customer_email}
        reason={project.status === 'hidden' ? project.hidden_reason : null}
        onDone={() => revalidator.revalidate()}
      >
        {audit.length > 0 && (
          <>
            <h3 className="moderation-panel__subtitle">История</h3>
            <ul className="audit">
              {audit.map((e) => (
                <li key={e._id}>
                  <strong>{auditActionLabel(e.action)}</strong>
                  {typeof e.details.reason === 'string' && <> — {e.details.reason}</>}{' '}
                  <span className="field__hint">{formatRelative(e.created_at)}</span>
                </li>
              ))}
            </ul>
          </>
        )}
      </ModerationPanel>
      <ProjectPreview project={project} />
      <ProjectForm
        key={project.updated_at}
        mode="admin"
        submitLabel="Сохранить"
        initial={projectToValues(project)}
        onSubmit={(body) => api.write('admin.projects.update', { params: { id: project._id }, body })}
        onSaved={() => {
          toast('Изменения сохранены, заказчик получит письмо', { type: 'success' });
          void revalidator.revalidate();
        }}
        cancelTo={
          <AppLink to="/admin/projects" className="btn btn--ghost item-form__cancel">
            К списку
          </AppLink>
        }
      />
    </section>
  );
}
