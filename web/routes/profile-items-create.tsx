import { useNavigate, useSearchParams } from 'react-router';
import type { Route } from './+types/profile-items-create';
import { api } from '../lib/api.ts';
import { toast } from '../lib/toast-store.ts';
import { pageMeta } from '../lib/meta.ts';
import { useShell, type RootData } from '../lib/use-shell.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { Breadcrumbs } from '../components/ui/breadcrumbs.tsx';
import { ConfirmEmailNotice, emptyProjectValues, ProjectForm, ServiceForm, SwitchRoleButton } from '../features/items/index.ts';
// The item forms and the owner's list: linked on these pages only (ADR 024).
import '../styles/items.css';

// /profile/items/create: a seller creates a service, a customer a project (by the active role). ?kind=service or
// ?kind=project asks for one explicitly; when it does not match the role, the page offers to switch. ?title= fills
// a project's title (a search that found nothing offers «Разместите проект» with its words, issue 25).

/** What the page creates: the asked kind, else the active role's. */
function kindOf(asked: string | null, seller: boolean): 'service' | 'project' {
  return asked === 'service' || asked === 'project' ? asked : seller ? 'service' : 'project';
}
const TITLES = { service: 'Новая услуга', project: 'Новый проект' } as const;

// The tab says what the heading says (issue 15: it said «Новое объявление» above «Новая услуга»).
export const meta: Route.MetaFunction = ({ matches, location }) => {
  const user = (matches.find((m) => m?.id === 'root')?.data as RootData | undefined)?.user;
  return pageMeta(matches, TITLES[kindOf(new URLSearchParams(location.search).get('kind'), user?.active_role === 'seller')]);
};

const cancel = (
  <AppLink to="/profile/items" className="btn btn--ghost item-form__cancel">
    Отмена
  </AppLink>
);

export default function CreateItemPage() {
  const { user } = useShell();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  if (!user) return null;
  const seller = user.active_role === 'seller';
  const kind = kindOf(params.get('kind'), seller);
  const wrongRole = (kind === 'service') !== seller;
  const title = TITLES[kind];

  return (
    <section className="page">
      <Breadcrumbs items={[{ label: seller ? 'Мои услуги' : 'Мои проекты', to: '/profile/items' }, { label: title }]} />
      <h1 className="page__title">{title}</h1>
      {wrongRole ? (
        <div className="card items-switch">
          <p>
            {kind === 'project'
              ? 'Проекты размещают в режиме «Покупатель». Переключитесь, и форма проекта откроется здесь же.'
              : user.roles.includes('seller')
                ? 'Услуги размещают в режиме «Продавец». Переключитесь, и форма услуги откроется здесь же.'
                : 'Услуги размещают продавцы. Станьте продавцом — это бесплатно — и возвращайтесь сюда, чтобы создать услугу.'}
          </p>
          <SwitchRoleButton role={kind === 'service' ? 'seller' : 'customer'} />
        </div>
      ) : (
        <>
          {!user.email_confirmed && (
            <ConfirmEmailNotice action={kind === 'service' ? 'отправить услугу на модерацию' : 'опубликовать проект'} />
          )}
          {kind === 'service' ? (
            <ServiceForm
              mode="owner"
              onSubmit={(body) => api.write('services.create', { body })}
              onSaved={(published) => {
                toast(published ? 'Услуга отправлена на модерацию' : 'Черновик сохранён', { type: 'success' });
                void navigate('/profile/items');
              }}
              cancelTo={cancel}
            />
          ) : (
            <ProjectForm
              initial={params.get('title') ? { ...emptyProjectValues(), title: params.get('title')! } : undefined}
              submitLabel="Опубликовать"
              onSubmit={(body) => api.write('projects.create', { body })}
              onSaved={() => {
                toast('Проект опубликован', { type: 'success' });
                void navigate('/profile/items');
              }}
              cancelTo={cancel}
            />
          )}
        </>
      )}
    </section>
  );
}
