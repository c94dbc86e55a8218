import { data as answer } from 'react-router';
import { CalendarDays, Flag, MapPin, MessageCircle, Settings } from '../components/ui/icons.tsx';
import type { Route } from './+types/user-profile';
import { errorMeta } from '../lib/meta.ts';
import { pageNotFound } from '../lib/guards.ts';
import { useShell } from '../lib/use-shell.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { Avatar } from '../components/ui/avatar.tsx';
import { Breadcrumbs } from '../components/ui/breadcrumbs.tsx';
import { formatDate } from '../lib/dates.ts';
import { FavoriteButton } from '../features/favorites/index.ts';
import {
  absoluteUrl,
  breadcrumbLd,
  count,
  excerpt,
  FORMS,
  isUuid,
  JsonLd,
  LevelBadge,
  OnlineStatus,
  ordersDoneText,
  Rating,
  seoMeta,
  ServiceCardView,
} from '../features/catalog/index.ts';
import { displayName, messagesPath } from '../lib/people.ts';
import { loginPath } from '../lib/safe-target.ts';
import { ReviewsSection, type ReviewsPage } from '../features/reviews/index.ts';
import { SELLER_LEVEL_TITLES } from '#contract/catalog-constants';
import { trimEnd } from '#contract/text';

// /user/{id}: a person's public page — who they are, their rating and their services.

export async function loader({ params, context }: Route.LoaderArgs) {
  if (!isUuid(params.id)) throw pageNotFound();
  const [res, reviewed] = await Promise.all([
    context.read('people.profile', { params: { id: params.id } }),
    context.read('reviews.ofUser', { params: { id: params.id }, query: { limit: 5 } }),
  ]);
  if (res.status >= 500) throw answer('Server error', { status: 500 });
  if (!res.ok) throw pageNotFound();
  const reviews: ReviewsPage = reviewed.ok ? { result: reviewed.body.result, total: reviewed.body.total, next: reviewed.body.next } : { result: [], total: 0, next: null };
  return { person: res.body.result, reviews, own: context.user?._id === res.body.result._id, path: `/user/${res.body.result._id}` };
}

export const meta: Route.MetaFunction = ({ data, matches, error }) => {
  if (error || !data) return errorMeta(matches, error);
  const { person } = data;
  const name = displayName(person);
  const fallback = `${name} — ${SELLER_LEVEL_TITLES[person.level]}${person.services.length ? `, ${count(person.services_total, FORMS.services)}` : ''}.`;
  return seoMeta(matches, {
    title: name,
    description: excerpt(person.about) || fallback,
    path: data.path,
    type: 'profile',
    image: person.avatar,
  });
};

export default function UserProfilePage({ loaderData }: Route.ComponentProps) {
  const { person, reviews, own, path } = loaderData;
  const { user, catalogue, config } = useShell();
  const siteUrl = trimEnd(config.siteUrl, '/');
  const name = displayName(person);
  const place = [person.city, person.country].filter(Boolean).join(', ');
  const total = person.services_total;
  const chat = messagesPath(person._id);
  const crumbs = [{ label: 'Главная', to: '/' }, { label: 'Фрилансеры', to: '/freelancers/all' }, { label: name }];
  const about = person.about.split(/\n{2,}/).filter((p) => p.trim());

  return (
    <article className="detail user-page">
      <Breadcrumbs items={crumbs} />
      <JsonLd data={breadcrumbLd(siteUrl, crumbs.map((c) => ({ name: c.label, path: c.to ?? path })))} />
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'Person',
          name,
          alternateName: person.user_name,
          url: absoluteUrl(siteUrl, path),
          ...(person.avatar ? { image: absoluteUrl(siteUrl, person.avatar) } : {}),
          ...(person.about ? { description: excerpt(person.about, 300) } : {}),
        }}
      />
      <header className="card user-head">
        <Avatar name={name} src={person.avatar} size={96} />
        <div className="user-head__main">
          <h1 className="page__title user-head__name">{name}</h1>
          <p className="user-head__login">
            @{person.user_name} <OnlineStatus online={person.online_status} showOffline />
          </p>
          <div className="user-head__facts">
            <LevelBadge level={person.level} />
            <Rating rating={person.rating} reviews={person.reviews_count} />
            <span>{ordersDoneText(person.orders_count)}</span>
          </div>
          <ul className="user-head__meta">
            {place && (
              <li>
                <MapPin size={16} aria-hidden /> {place}
              </li>
            )}
            <li>
              <CalendarDays size={16} aria-hidden /> На сайте с {formatDate(person.created_at)}
            </li>
          </ul>
        </div>
        <div className="user-head__actions">
          {own ? (
            <AppLink to="/profile/settings" className="btn btn--ghost">
              <Settings size={18} aria-hidden /> Редактировать профиль
            </AppLink>
          ) : (
            <>
              <AppLink to={user ? chat : loginPath(chat)} className="btn btn--primary">
                <MessageCircle size={18} aria-hidden /> Написать
              </AppLink>
              <FavoriteButton id={person._id} type="freelancer" withText />
              <a href={`/profile/disputes?tab=appeals&subject=user&object=${person._id}`} className="btn btn--quiet" rel="nofollow">
                <Flag size={16} aria-hidden /> Пожаловаться
              </a>
            </>
          )}
        </div>
      </header>

      <section className="detail__section card">
        <h2>О себе</h2>
        {about.length ? (
          <div className="prose">
            {about.map((p, i) => (
              <p key={i}>{p}</p>
            ))}
          </div>
        ) : (
          <p className="muted">{own ? 'Расскажите о себе в настройках профиля: заказчики чаще выбирают тех, о ком что-то знают.' : 'Пользователь пока ничего не рассказал о себе.'}</p>
        )}
      </section>

      <section className="detail__section">
        <h2>
          Услуги <span className="muted">{total > 0 ? `· ${count(total, FORMS.services)}` : ''}</span>
        </h2>
        {person.services.length ? (
          <ul className="card-grid">
            {person.services.map((s, i) => (
              <li key={s._id}>
                <ServiceCardView service={s} catalogue={catalogue} eager={i === 0} />
              </li>
            ))}
          </ul>
        ) : (
          <div className="empty-state">
            {own ? (
              <>
                <p>У вас пока нет опубликованных услуг.</p>
                <AppLink to="/profile/items/create" className="btn btn--primary">
                  Разместить услугу
                </AppLink>
              </>
            ) : (
              <>
                <p>У пользователя пока нет опубликованных услуг.</p>
                <AppLink to="/services/all" className="btn btn--ghost">
                  Смотреть все услуги
                </AppLink>
              </>
            )}
          </div>
        )}
      </section>
      <ReviewsSection source="reviews.ofUser" id={person._id} initial={reviews} />
    </article>
  );
}
