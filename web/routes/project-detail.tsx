import { data as answer, redirect } from 'react-router';
import { CalendarClock, Eye, FileText, MessageSquareText } from '../components/ui/icons.tsx';
import type { Route } from './+types/project-detail';
import type { Project } from '#contract/catalog';
import { errorMeta, pageNotFound } from '../features/shell/index.ts';
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
import { loginPath } from '../features/auth/index.ts';
import { trimEnd } from '#contract/text';

// /projects/{slug}/{projectId}: a customer's project on the exchange. Bids come with a later issue; the
// section that will hold the bid form already says who can bid.

const STATUS_NOTES: Record<string, string> = {
  in_progress: 'Исполнитель выбран — проект в работе, отклики закрыты.',
  closed: 'Проект завершён, отклики закрыты.',
  archived: 'Проект в архиве: заказчик не выбрал исполнителя за 30 дней.',
  hidden: 'Проект скрыт администратором.',
};

export async function loader({ params, context, request }: Route.LoaderArgs) {
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
    throw redirect(`/projects/${category.slug}/${id}${new URL(request.url).search}`, 301);
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

function BidSection({ project, own, path }: { project: Project; own: boolean; path: string }) {
  const { user } = useShell();
  const open = project.status === 'active';
  let body: React.ReactNode;
  if (own) {
    body = (
      <p>
        Это ваш проект. Отклики исполнителей появятся в разделе <AppLink to="/profile/bids">«Отклики»</AppLink>.
      </p>
    );
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
  } else if (user.active_role === 'seller') {
    body = (
      <>
        <button type="button" className="btn btn--primary" disabled aria-describedby="bid-hint">
          Откликнуться
        </button>
        <p id="bid-hint" className="order-box__hint">
          Отклики скоро заработают: вы сможете предложить цену, срок и рассказать о своём опыте.
        </p>
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
        Откликнуться
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
