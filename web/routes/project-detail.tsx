import { Suspense, useSyncExternalStore } from 'react';
import { data as answer, redirect } from 'react-router';
import { CalendarClock, Eye, FileText, Flag, MessageSquareText } from '../components/ui/icons.tsx';
import type { Route } from './+types/project-detail';
import type { Project } from '#contract/catalog';
import { errorMeta } from '../lib/meta.ts';
import { pageNotFound } from '../lib/guards.ts';
import { useShell } from '../lib/use-shell.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { Breadcrumbs } from '../components/ui/breadcrumbs.tsx';
import { formatDate, formatRelative } from '../lib/dates.ts';
import { FavoriteButton } from '../features/favorites/index.ts';
import {
  attachmentLabel,
  breadcrumbLd,
  Budget,
  count,
  daysText,
  excerpt,
  findCategory,
  FORMS,
  isUuid,
  JsonLd,
  PersonCard,
  seoMeta,
} from '../features/catalog/index.ts';
import { loginPath } from '../lib/safe-target.ts';
import { ProjectBids } from '../features/bids/index.ts';
import { trimEnd } from '#contract/text';

// /projects/{slug}/{projectId}: a customer's project on the exchange. The bid section: a guest is asked to sign in;
// the customer sees the bids received, a seller their bid or the form. The signed-in parts are a lazy chunk,
// mounted after hydration: a guest's page carries none of it.

const STATUS_NOTES: Record<string, string> = {
  in_progress: 'Исполнитель выбран — проект в работе, отклики закрыты.',
  closed: 'Проект завершён, отклики закрыты.',
  archived: 'Проект в архиве: заказчик не выбрал исполнителя за 30 дней.',
  hidden: 'Проект скрыт администратором.',
};

export async function loader({ params, context, url }: Route.LoaderArgs) {
  const id = params.projectId;
  if (!isUuid(id)) throw pageNotFound();
  // Only the customer and admins see a project that is not public: the projects policy decides, a 404 otherwise.
  const res = await context.read('projects.get', { params: { id } });
  if (res.status >= 500) throw answer('Server error', { status: 500 });
  if (!res.ok) throw pageNotFound();
  const project = res.body.result;
  const own = context.user?._id === project.customer._id;

  const category = findCategory(await context.catalogue(), project.category);
  if (category && params.slug !== category.slug) {
    throw redirect(`/projects/${category.slug}/${id}${url.search}`, 301);
  }
  const slug = category?.slug ?? params.slug;
  return {
    project,
    own,
    path: `/projects/${slug}/${id}`,
    category: { slug, title: category?.title ?? project.category_title },
  };
}

export const meta: Route.MetaFunction = ({ data, matches, error }) => {
  if (error || !data) return errorMeta(matches, error);
  return seoMeta(matches, {
    title: data.project.title,
    description: excerpt(data.project.description),
    path: data.path,
    type: 'article',
    noindex: data.project.status === 'hidden',
  });
};

/** True after hydration: the signed-in bid section renders in the browser only. */
const noSubscription = () => () => undefined;
function useMounted() {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

function BidSection({ project, own, path }: { project: Project; own: boolean; path: string }) {
  const { user } = useShell();
  const mounted = useMounted();
  const open = project.status === 'active';
  const lazyBids = (
    <Suspense fallback={<div className="skeleton" style={{ height: 120 }} aria-busy="true" />}>
      {mounted ? <ProjectBids projectId={project._id} open={open} own={own} /> : <div className="skeleton" style={{ height: 120 }} aria-busy="true" />}
    </Suspense>
  );
  let body: React.ReactNode;
  let title = 'Откликнуться';
  if (own) {
    title = 'Отклики исполнителей';
    body = lazyBids;
  } else if (user?.active_role === 'seller') {
    body = lazyBids;
  } else if (!open) {
    body = <p>Отклики на этот проект закрыты.</p>;
  } else if (!user) {
    body = (
      <>
        <p>Откликаться на проекты могут продавцы. Войдите, чтобы предложить заказчику свою цену и срок.</p>
        <AppLink to={loginPath(path)} className="btn btn--primary">
          Войти и откликнуться
        </AppLink>
      </>
    );
  } else {
    body = (
      <>
        <p>Откликаться на проекты можно в режиме «Продавец».</p>
        {!user.roles.includes('seller') && (
          <AppLink to="/become-seller" className="btn btn--ghost">
            Стать продавцом
          </AppLink>
        )}
      </>
    );
  }
  return (
    <section className="card bid-box" aria-labelledby="bid-title">
      <h2 id="bid-title" className="card__title">
        {title}
      </h2>
      {body}
    </section>
  );
}

export default function ProjectDetailPage({ loaderData }: Route.ComponentProps) {
  const { project, own, path, category } = loaderData;
  const { config } = useShell();
  const siteUrl = trimEnd(config.siteUrl, '/');
  const crumbs = [
    { label: 'Главная', to: '/' },
    { label: 'Биржа проектов', to: '/projects' },
    { label: category.title, to: `/projects/${category.slug}` },
    { label: project.title },
  ];
  const paragraphs = project.description.split(/\n{2,}/).filter((p) => p.trim());

  return (
    <article className="detail project-page">
      <Breadcrumbs items={crumbs} />
      <JsonLd data={breadcrumbLd(siteUrl, crumbs.map((c) => ({ name: c.label, path: c.to ?? path })))} />
      {STATUS_NOTES[project.status] && (
        <p className="notice" role="note">
          {STATUS_NOTES[project.status]} {project.status === 'hidden' && project.hidden_reason && `Причина: ${project.hidden_reason}`}
        </p>
      )}
      <div className="detail__layout detail__layout--project">
        <header className="detail__head">
          <h1 className="page__title">{project.title}</h1>
          <ul className="detail__facts">
            <li>
              Опубликован{' '}
              <time dateTime={project.created_at} title={formatDate(project.created_at)} suppressHydrationWarning>
                {formatRelative(project.created_at)}
              </time>
            </li>
            <li>
              <MessageSquareText size={16} aria-hidden /> {count(project.bids_count, FORMS.bids)}
            </li>
            <li>
              <Eye size={16} aria-hidden /> {count(project.views, FORMS.views)}
            </li>
          </ul>
        </header>
        <aside className="detail__aside" aria-label="Условия проекта">
          <div className="card order-box">
            <p className="order-box__label">Бюджет</p>
            <p className="order-box__price">
              <Budget budget={project.budget} />
            </p>
            <ul className="order-box__facts">
              <li>
                <CalendarClock size={18} aria-hidden /> Срок: {project.days ? daysText(project.days) : 'не указан'}
              </li>
              <li>
                <MessageSquareText size={18} aria-hidden /> {count(project.bids_count, FORMS.bids)}
              </li>
            </ul>
            <FavoriteButton id={project._id} type="project" withText />
            {/* A plain link, no script: a guest is sent to sign in and back (issue 14). */}
            {!own && (
              <a href={`/profile/disputes?tab=appeals&subject=project&object=${project._id}`} className="btn btn--quiet btn--block" rel="nofollow">
                <Flag size={16} aria-hidden /> Пожаловаться
              </a>
            )}
          </div>
          <PersonCard person={project.customer} role="customer" />
        </aside>
        <div className="detail__content">
          <section className="detail__section">
            <h2>Описание задачи</h2>
            <div className="prose">
              {paragraphs.map((p, i) => (
                <p key={i}>{p}</p>
              ))}
            </div>
          </section>
          {project.attachments.length > 0 && (
            <section className="detail__section">
              <h2>Вложения</h2>
              <ul className="attachments">
                {/* By the names they were uploaded under (issue 15); a bare address only if the answer lacks them. */}
                {(project.attachment_files ?? project.attachments.map((url, i) => ({ url, name: attachmentLabel(url, i) }))).map((file) => (
                  <li key={file.url}>
                    <a href={file.url} className="attachment" target="_blank" rel="noopener" download={file.name}>
                      <FileText size={18} aria-hidden /> {file.name}
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <BidSection project={project} own={own} path={path} />
        </div>
      </div>
    </article>
  );
}
