import { useState } from 'react';
import { useLoaderData, useRevalidator } from 'react-router';
import { Plus } from '../components/ui/icons.tsx';
import type { Route } from './+types/profile-items';
import type { Project, Service } from '#contract/catalog';
import { LISTING_MAX_LIMIT } from '#contract/catalog-constants';
import { api } from '../lib/api.ts';
import { LIVE_KINDS, useRevalidateOn } from '../lib/live-refresh.ts';
import { toast } from '../lib/toast-store.ts';
import { pageMeta } from '../lib/meta.ts';
import { useShell } from '../lib/use-shell.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { ConfirmEmailNotice, type ItemKind, MyItems, SwitchRoleButton } from '../features/items/index.ts';
// The item forms and the owner's list: linked on these pages only (ADR 024).
import '../styles/items.css';
import { ShowMore } from '../components/ui/show-more.tsx';

// /profile/items: a seller's services or a customer's projects, by the active role.

type Page = {
  kind: ItemKind;
  services: Service[];
  projects: Project[];
  total: number;
  next: string | null;
  failed: boolean;
};

export async function clientLoader(): Promise<Page> {
  try {
    // The active role decides the list; it may have changed in this tab a moment ago, so it is asked afresh.
    const me = (await api.read('users.me', {}, { fresh: true })).result;
    if (me.active_role === 'seller') {
      const answer = await api.read('services.mine', {}, { fresh: true });
      return {
        kind: 'service',
        services: answer.result,
        projects: [],
        total: answer.result.length,
        next: null,
        failed: false,
      };
    }
    const answer = await api.read('projects.mine', { query: { limit: LISTING_MAX_LIMIT } }, { fresh: true });
    return {
      kind: 'project',
      services: [],
      projects: answer.result,
      total: answer.total ?? answer.result.length,
      next: answer.next,
      failed: false,
    };
  } catch {
    return { kind: 'service', services: [], projects: [], total: 0, next: null, failed: true };
  }
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <section className="page" aria-busy="true">
      <div className="page__head">
        <h1 className="page__title">Мои услуги и проекты</h1>
      </div>
      <ul className="my-items" aria-label="Загрузка">
        {[0, 1, 2].map((i) => (
          <li key={i} className="my-item my-item--skeleton">
            <span className="skeleton my-item__cover" />
            <div className="my-item__body">
              <span className="skeleton" style={{ width: '60%', height: 20 }} />
              <span className="skeleton" style={{ width: '40%' }} />
              <span className="skeleton" style={{ width: '30%' }} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches, data }) =>
  pageMeta(
    matches,
    data?.kind === 'service' ? 'Мои услуги' : data?.kind === 'project' ? 'Мои проекты' : 'Мои услуги и проекты',
  );

export default function ProfileItemsPage() {
  const data = useLoaderData<typeof clientLoader>();
  const { user } = useShell();
  const revalidator = useRevalidator();
  // A moderation decision or a new bid shows here without a reload.
  useRevalidateOn(LIVE_KINDS.items);
  const service = data.kind === 'service';
  // Further pages of projects, until the list is loaded again.
  const [more, setMore] = useState({ base: data.projects, items: [] as Project[], next: data.next, loading: false });
  if (more.base !== data.projects) setMore({ base: data.projects, items: [], next: data.next, loading: false });

  async function loadMore() {
    if (!more.next) return;
    setMore((m) => ({ ...m, loading: true }));
    try {
      const answer = await api.read('projects.mine', { query: { limit: LISTING_MAX_LIMIT, cursor: more.next } }, { fresh: true });
      setMore((m) => ({ ...m, items: [...m.items, ...answer.result], next: answer.next, loading: false }));
    } catch (err) {
      setMore((m) => ({ ...m, loading: false }));
      toast((err as { message?: string }).message ?? 'Не удалось загрузить проекты');
    }
  }

  const count = service ? data.services.length : data.projects.length + more.items.length;
  const title = service ? 'Мои услуги' : 'Мои проекты';

  return (
    <section className="page">
      <div className="page__head">
        <h1 className="page__title">{title}</h1>
        {!data.failed && (
          <AppLink to="/profile/items/create" className="btn btn--primary">
            <Plus size={18} aria-hidden="true" /> {service ? 'Создать услугу' : 'Создать проект'}
          </AppLink>
        )}
      </div>
      {user && !user.email_confirmed && (
        <ConfirmEmailNotice action={service ? 'отправлять услуги на модерацию' : 'публиковать проекты'} />
      )}
      {data.failed ? (
        <div className="empty-state" role="alert">
          <p>Не удалось загрузить список. Проверьте соединение и попробуйте ещё раз.</p>
          <button type="button" className="btn btn--primary" onClick={() => revalidator.revalidate()}>
            Повторить
          </button>
        </div>
      ) : count === 0 ? (
        <div className="empty-state items-empty">
          {service ? (
            <>
              <p className="items-empty__title">У вас пока нет услуг</p>
              <p>
                Опишите, что вы умеете делать, назначьте цену и срок. После проверки модератором услуга появится в
                каталоге, и покупатели смогут её заказать.
              </p>
              <AppLink to="/profile/items/create" className="btn btn--primary">
                <Plus size={18} aria-hidden="true" /> Создать первую услугу
              </AppLink>
            </>
          ) : (
            <>
              <p className="items-empty__title">У вас пока нет проектов</p>
              <p>
                Опишите задачу, бюджет и срок — проект сразу появится на бирже, и продавцы пришлют отклики с ценами.
              </p>
              <AppLink to="/profile/items/create" className="btn btn--primary">
                <Plus size={18} aria-hidden="true" /> Разместить проект
              </AppLink>
            </>
          )}
        </div>
      ) : (
        <>
          <p className="field__hint" aria-live="polite">
            {service ? `Услуг: ${count}` : `Проектов: ${data.total}`}
          </p>
          <MyItems kind={data.kind} services={data.services} projects={[...data.projects, ...more.items]} />
          {!service && more.next && (
            <ShowMore busy={more.loading} onClick={loadMore} />
          )}
        </>
      )}
      {!data.failed && (
        <aside className="items-role-hint" aria-label="Режим работы">
          <p>
            {service
              ? 'Нужно что-то заказать? Проекты размещают в режиме «Покупатель».'
              : user?.roles.includes('seller')
                ? 'Ваши услуги — в режиме «Продавец».'
                : 'Хотите продавать свои услуги? Станьте продавцом, это бесплатно.'}
          </p>
          <SwitchRoleButton role={service ? 'customer' : 'seller'} ghost />
        </aside>
      )}
    </section>
  );
}
