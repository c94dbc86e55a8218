import { data as answer, useLoaderData, useRevalidator } from 'react-router';
import type { Route } from './+types/admin-service-edit';
import { api } from '../lib/api.ts';
import { toast } from '../lib/toast-store.ts';
import { pageMeta } from '../lib/meta.ts';
import { pageNotFound } from '../lib/guards.ts';
import { Breadcrumbs } from '../components/ui/breadcrumbs.tsx';
import { AppLink } from '../components/ui/app-link.tsx';
import { ServiceForm, serviceToValues } from '../features/items/index.ts';
import { ModerationPanel, ServicePreview } from '../features/moderation/index.ts';

// /admin/services/{id}/edit: decide about a service, seeing it as the public does (read-only), and correct its
// fields (the state stays as it is).

// The document request checks the service exists (HTTP 404 otherwise, ADR 038); the page's data is the browser's.
export async function loader({ params, context }: Route.LoaderArgs) {
  const res = await context.read('admin.services.get', { params: { id: params.id } });
  if (res.status >= 500) throw answer('Server error', { status: 500 });
  if (!res.ok) throw pageNotFound();
  return null;
}

export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  try {
    return (await api.read('admin.services.get', { params: { id: params.id } }, { fresh: true })).result;
  } catch {
    throw pageNotFound();
  }
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <section className="page" aria-busy="true">
      <h1 className="page__title">Редактирование услуги</h1>
      <div className="skeleton" style={{ height: 160, marginBottom: 16 }} />
      <div className="skeleton" style={{ height: 420 }} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches, data }) =>
  pageMeta(matches, data ? `Услуга: ${data.title}` : 'Редактирование услуги');

export default function AdminServiceEditPage() {
  const service = useLoaderData<typeof clientLoader>();
  const revalidator = useRevalidator();
  return (
    <section className="page">
      <Breadcrumbs items={[{ label: 'Услуги', to: '/admin/services' }, { label: service.title }]} />
      <h1 className="page__title">Редактирование услуги</h1>
      <ModerationPanel
        kind="service"
        item={service}
        owner={service.seller}
        reason={service.status === 'rejected' || service.status === 'hidden' ? service.reject_reason : null}
        onDone={() => revalidator.revalidate()}
      />
      <ServicePreview service={service} />
      {service.pending_edit && (
        <p className="items-notice" role="note">
          Продавец изменил опубликованную услугу. Ниже — новая версия; покупатели видят прежнюю, пока вы не одобрите
          изменения.
        </p>
      )}
      <ServiceForm
        // A saved edit comes back normalised (tags in lower case): the form starts again from it.
        key={service.updated_at}
        mode="admin"
        status={service.status}
        initial={serviceToValues(service.pending_edit ?? service)}
        onSubmit={(body) => api.write('admin.services.update', { params: { id: service._id }, body })}
        onSaved={() => {
          toast('Изменения сохранены, продавец получит письмо', { type: 'success' });
          void revalidator.revalidate();
        }}
        cancelTo={
          <AppLink to="/admin/services" className="btn btn--ghost item-form__cancel">
            К списку
          </AppLink>
        }
      />
    </section>
  );
}
