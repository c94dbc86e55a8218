import { data as answer, useLoaderData, useNavigate } from 'react-router';
import type { Route } from './+types/profile-items-edit';
import type { Me } from '#contract/api';
import type { Project, Service } from '#contract/catalog';
import { api } from '../lib/api.ts';
import { toast } from '../lib/toast-store.ts';
import { pageMeta } from '../lib/meta.ts';
import { pageNotFound, requireSignedIn } from '../lib/guards.ts';
import { useShell } from '../lib/use-shell.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { Breadcrumbs } from '../components/ui/breadcrumbs.tsx';
import {
  ConfirmEmailNotice,
  ProjectForm,
  projectToValues,
  ServiceForm,
  serviceToValues,
  StatusBadge,
} from '../features/items/index.ts';
// The item forms and the owner's list: linked on these pages only (ADR 024).
import '../styles/items.css';

// /profile/items/{id}/edit: the owner's service or project. The id does not say which: the active role's kind is
// tried first, then the other one.

type Loaded = { kind: 'service'; service: Service } | { kind: 'project'; project: Project };

async function load(kind: 'service' | 'project', id: string, me: Me): Promise<Loaded | null> {
  try {
    if (kind === 'service') {
      const service = (await api.read('services.get', { params: { id } }, { fresh: true })).result;
      return service.seller._id === me._id ? { kind, service } : null;
    }
    const project = (await api.read('projects.get', { params: { id } }, { fresh: true })).result;
    return project.customer._id === me._id ? { kind, project } : null;
  } catch {
    return null;
  }
}

/**
 * The document request checks that the item exists and is the signed-in person's own (HTTP 404 otherwise, also for
 * someone else's service or project: ADR 038); the page's data is the browser's. The profile layout has already
 * sent a guest to /login.
 */
export async function loader({ params, context, url }: Route.LoaderArgs) {
  const me = requireSignedIn(context.user, url);
  if (!/^[0-9a-f-]{36}$/i.test(params.id)) throw pageNotFound();
  // An id is a service's or a project's, never both: the project is asked only when no service answers.
  const service = await context.read('services.get', { params: { id: params.id } });
  const project = service.ok || service.status >= 500 ? null : await context.read('projects.get', { params: { id: params.id } });
  if (service.status >= 500 || (project && project.status >= 500)) throw answer('Server error', { status: 500 });
  const own = service.ok ? service.body.result.seller._id === me._id : project?.ok === true && project.body.result.customer._id === me._id;
  if (!own) throw pageNotFound();
  return null;
}

export async function clientLoader({ params }: Route.ClientLoaderArgs): Promise<Loaded> {
  const me = await api.read('users.me', {}, { fresh: true }).then(
    (a) => a.result,
    () => null,
  );
  if (!me || !/^[0-9a-f-]{36}$/i.test(params.id)) throw pageNotFound();
  const first = me.active_role === 'seller' ? 'service' : 'project';
  const found =
    (await load(first, params.id, me)) ?? (await load(first === 'service' ? 'project' : 'service', params.id, me));
  if (!found) throw pageNotFound();
  return found;
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <section className="page" aria-busy="true">
      <h1 className="page__title">Редактирование</h1>
      <div className="skeleton" style={{ height: 420 }} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches, data }) =>
  pageMeta(
    matches,
    data
      ? `Редактирование: ${data.kind === 'service' ? data.service.title : data.project.title}`
      : 'Редактирование объявления',
  );

const cancel = (
  <AppLink to="/profile/items" className="btn btn--ghost item-form__cancel">
    Отмена
  </AppLink>
);

export default function EditItemPage() {
  const data = useLoaderData<typeof clientLoader>();
  const { user } = useShell();
  const navigate = useNavigate();
  const done = (message: string) => {
    toast(message, { type: 'success' });
    void navigate('/profile/items');
  };

  if (data.kind === 'service') {
    const s = data.service;
    return (
      <section className="page">
        <Breadcrumbs items={[{ label: 'Мои услуги', to: '/profile/items' }, { label: 'Редактирование' }]} />
        <div className="page__head">
          <h1 className="page__title">Редактирование услуги</h1>
          <StatusBadge kind="service" status={s.status} />
        </div>
        {s.status === 'hidden' ? (
          <div className="items-notice items-notice--danger" role="note">
            <p>Услуга скрыта модератором{s.reject_reason ? `: ${s.reject_reason}` : '.'}</p>
            <p>Скрытую услугу нельзя изменить. Если вы не согласны с решением, напишите в поддержку.</p>
          </div>
        ) : (
          <>
            {s.status === 'active' && s.pending_edit && (
              <p className="items-notice" role="note">
                Изменения на модерации. Покупатели видят прежнюю версию услуги, пока модератор не одобрит новую.
              </p>
            )}
            {s.status === 'active' && !s.pending_edit && (
              <p className="items-notice" role="note">
                {s.reject_reason ? `Модератор отклонил прошлые изменения: ${s.reject_reason}. ` : ''}
                После сохранения изменения уйдут на модерацию. Пока модератор их проверяет, покупатели видят текущую
                версию услуги.
              </p>
            )}
            {s.status === 'paused' && (
              <p className="items-notice items-notice--warning" role="note">
                После сохранения услуга уйдёт на модерацию и вернётся в каталог, когда модератор её одобрит.
              </p>
            )}
            {s.status === 'rejected' && (
              <p className="items-notice items-notice--danger" role="note">
                Модератор отклонил услугу{s.reject_reason ? `: ${s.reject_reason}` : '.'} Исправьте замечания и
                отправьте её на модерацию снова.
              </p>
            )}
            {s.status === 'moderation' && (
              <p className="items-notice" role="note">
                Услуга на модерации. Правки попадут к модератору вместе с ней.
              </p>
            )}
            {user && !user.email_confirmed && <ConfirmEmailNotice action="сохранять изменения" />}
            <ServiceForm
              mode="owner"
              status={s.status}
              initial={serviceToValues(s.pending_edit ?? s)}
              onSubmit={(body) => api.write('services.update', { params: { id: s._id }, body })}
              onSaved={(published) =>
                done(
                  !published
                    ? 'Черновик сохранён'
                    : s.status === 'moderation'
                      ? 'Изменения сохранены'
                      : s.status === 'active'
                        ? 'Изменения отправлены на модерацию, покупатели пока видят прежнюю версию'
                        : 'Изменения сохранены, услуга отправлена на модерацию',
                )
              }
              cancelTo={cancel}
            />
          </>
        )}
      </section>
    );
  }

  const p = data.project;
  return (
    <section className="page">
      <Breadcrumbs items={[{ label: 'Мои проекты', to: '/profile/items' }, { label: 'Редактирование' }]} />
      <div className="page__head">
        <h1 className="page__title">Редактирование проекта</h1>
        <StatusBadge kind="project" status={p.status} />
      </div>
      {p.status !== 'active' ? (
        <div className="items-notice" role="note">
          <p>
            Изменить можно только активный проект.
            {p.status === 'hidden' && p.hidden_reason ? ` Проект скрыт модератором: ${p.hidden_reason}` : ''}
          </p>
        </div>
      ) : (
        <>
          {user && !user.email_confirmed && <ConfirmEmailNotice action="сохранять изменения" />}
          <ProjectForm
            submitLabel="Сохранить"
            initial={projectToValues(p)}
            onSubmit={(body) => api.write('projects.update', { params: { id: p._id }, body })}
            onSaved={() => done('Проект сохранён')}
            cancelTo={cancel}
          />
        </>
      )}
    </section>
  );
}
