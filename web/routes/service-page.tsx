import { Suspense } from 'react';
import { CalendarClock, Eye, Flag, MessageCircle, Pencil, RefreshCw } from '../components/ui/icons.tsx';
import type { Route } from './+types/service-detail';
import type { Service } from '#contract/catalog';
import { PACKAGE_TITLES } from '#contract/catalog-constants';
import { useShell } from '../lib/use-shell.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { Breadcrumbs } from '../components/ui/breadcrumbs.tsx';
import { Price } from '../components/ui/price.tsx';
import { FavoriteButton } from '../features/favorites/index.ts';
import { OrderForm } from '../features/orders/index.ts';
import { ReviewsSection } from '../features/reviews/index.ts';
import {
  breadcrumbLd,
  count,
  daysText,
  FORMS,
  Gallery,
  JsonLd,
  PersonCard,
  Rating,
  revisionsText,
  ServiceCardView,
  serviceLd,
} from '../features/catalog/index.ts';
import { messagesPath, userPath } from '../lib/people.ts';
import { loginPath } from '../lib/safe-target.ts';
import { currentUser } from '../lib/current-user.ts';
import { paymentRatesReady } from '../lib/payment-rates.ts';
import { trimEnd } from '#contract/text';

// A service's page (web/routes/service-detail.tsx renders it through deferred(): a guest's first page keeps the
// server's HTML and loads this code on first interaction, issue 11).

const STATUS_NOTES: Record<string, string> = {
  draft: 'Это черновик: услуга не опубликована.',
  moderation: 'Услуга на модерации: она появится в каталоге после проверки.',
  rejected: 'Услуга отклонена модератором.',
  paused: 'Услуга приостановлена и не показывается в каталоге.',
  hidden: 'Услуга скрыта администратором.',
};

const minPrice = (s: Service) => Math.min(s.price, ...s.packages.map((p) => p.price));

function OrderBox({ service, own, path }: { service: Service; own: boolean; path: string }) {
  const { user } = useShell();
  const chat = messagesPath(service.seller._id, service._id);
  return (
    <div className="card order-box">
      <p className="order-box__price">
        <Price kopecks={minPrice(service)} prefix="от" />
      </p>
      <ul className="order-box__facts">
        <li>
          <CalendarClock size={18} aria-hidden /> Срок: {daysText(service.days)}
        </li>
        <li>
          <RefreshCw size={18} aria-hidden /> Правки: {revisionsText(service.revisions)}
        </li>
      </ul>
      {own ? (
        <AppLink to={`/profile/items/${service._id}/edit`} className="btn btn--primary btn--block">
          <Pencil size={18} aria-hidden /> Редактировать услугу
        </AppLink>
      ) : user && service.status === 'active' ? (
        // Loaded only for a signed-in visitor: a guest's page carries none of it.
        <Suspense fallback={<div className="skeleton" style={{ height: 44 }} />}>
          <OrderForm service={service} />
        </Suspense>
      ) : user ? null : (
        <AppLink to={loginPath(path)} className="btn btn--primary btn--block">
          Заказать
        </AppLink>
      )}
      {!own && (
        <AppLink to={user ? chat : loginPath(chat)} className="btn btn--ghost btn--block">
          <MessageCircle size={18} aria-hidden /> Написать продавцу
        </AppLink>
      )}
      <div className="order-box__row">
        <FavoriteButton id={service._id} type="service" withText />
        <span className="order-box__views">
          <Eye size={16} aria-hidden /> {count(service.views, FORMS.views)}
        </span>
      </div>
      {/* A plain link, no script: a guest is sent to sign in and back (issue 14). */}
      {!own && (
        <a href={`/profile/disputes?tab=appeals&subject=service&object=${service._id}`} className="btn btn--quiet btn--block" rel="nofollow">
          <Flag size={16} aria-hidden /> Пожаловаться
        </a>
      )}
    </div>
  );
}

function PackagesSection({ packages }: { packages: Service['packages'] }) {
  return (
    <section className="detail__section">
      <h2>Пакеты</h2>
      <table className="table svc-packages">
        <thead>
          <tr>
            <th scope="col">Пакет</th>
            <th scope="col">Цена</th>
            <th scope="col">Срок</th>
            <th scope="col">Правки</th>
            <th scope="col">Что входит</th>
          </tr>
        </thead>
        <tbody>
          {packages.map((p) => (
            <tr key={p.kind}>
              <th scope="row" className="svc-packages__name">
                {PACKAGE_TITLES[p.kind]}
              </th>
              <td data-label="Цена">
                <Price kopecks={p.price} />
              </td>
              <td data-label="Срок">{daysText(p.days)}</td>
              <td data-label="Правки">{revisionsText(p.revisions)}</td>
              <td data-label="Что входит" className="svc-packages__text">
                {p.description}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function ExtrasSection({ extras }: { extras: Service['extras'] }) {
  return (
    <section className="detail__section">
      <h2>Дополнительные опции</h2>
      <ul className="svc-extras">
        {extras.map((e, i) => (
          <li key={i}>
            <span className="svc-extras__title">{e.title}</span>
            {e.days > 0 && <span className="svc-extras__days">+{daysText(e.days)}</span>}
            <Price kopecks={e.price} prefix="+" className="svc-extras__price" />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** How long a signed-in person's page waits for the ways to pay's fees before it goes live without them. */
const FEES_WAIT_MS = 3_000;

/**
 * The page, with the order form's code and the ways to pay's fees when a signed-in person opens it. Shown without
 * them, the page would show the form's placeholder, which grows into the form when its code comes, and then the fees
 * under the total: each moved what is below from under the pointer. A form whose code failed to come loads itself
 * when it renders; fees that failed to come (or are late) are left out until they come.
 */
export async function servicePage(): Promise<typeof ServicePage> {
  if (currentUser()) await Promise.all([OrderForm.load().catch(() => {}), paymentRatesReady(FEES_WAIT_MS)]);
  return ServicePage;
}

export function ServicePage({ data }: { data: Route.ComponentProps['loaderData'] }) {
  const { service, own, others, reviews, path, category } = data;
  const { catalogue, config } = useShell();
  const siteUrl = trimEnd(config.siteUrl, '/');
  const crumbs = [
    { label: 'Главная', to: '/' },
    { label: category.title, to: `/services/${category.slug}` },
    { label: service.title },
  ];
  const paragraphs = service.description.split(/\n{2,}/).filter((p) => p.trim());

  return (
    <article className="detail service-page">
      <Breadcrumbs items={crumbs} />
      <JsonLd data={breadcrumbLd(siteUrl, crumbs.map((c) => ({ name: c.label, path: c.to ?? path })))} />
      {service.status === 'active' && <JsonLd data={serviceLd(siteUrl, service, path)} />}
      {service.status !== 'active' && (
        <p className="notice" role="note">
          {STATUS_NOTES[service.status] ?? 'Услуга не опубликована.'} {service.reject_reason && `Причина: ${service.reject_reason}`}
        </p>
      )}
      <div className="detail__layout">
        <header className="detail__head">
          <h1 className="page__title">{service.title}</h1>
          <div className="detail__facts">
            <Rating rating={service.rating} reviews={service.reviews_count} />
            {service.orders_count > 0 && <span>{count(service.orders_count, FORMS.orders)}</span>}
          </div>
        </header>
        <div className="detail__gallery">
          <Gallery images={service.images} title={service.title} seed={service._id} />
        </div>
        <aside className="detail__aside" aria-label="Заказ">
          <OrderBox service={service} own={own} path={path} />
          <PersonCard person={service.seller} role="seller" />
        </aside>
        <div className="detail__content">
          <section className="detail__section">
            <h2>Об услуге</h2>
            <div className="prose">
              {paragraphs.map((p, i) => (
                <p key={i}>{p}</p>
              ))}
            </div>
          </section>
          {service.packages.length > 0 && <PackagesSection packages={service.packages} />}
          {service.extras.length > 0 && <ExtrasSection extras={service.extras} />}
          {service.tags.length > 0 && (
            <section className="detail__section">
              <h2>Теги</h2>
              <ul className="tags">
                {service.tags.map((tag) => (
                  <li key={tag}>
                    <AppLink to={`/services/all?tag=${encodeURIComponent(tag)}`} className="tag">
                      #{tag}
                    </AppLink>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {reviews && <ReviewsSection source="reviews.ofService" id={service._id} initial={reviews} showService={false} />}
          {others.length > 0 && (
            <section className="detail__section">
              <div className="detail__section-head">
                <h2>Другие услуги продавца</h2>
                <AppLink to={userPath(service.seller._id)} className="detail__more">
                  Все услуги
                </AppLink>
              </div>
              <ul className="card-grid card-grid--compact">
                {others.map((s) => (
                  <li key={s._id}>
                    <ServiceCardView service={s} catalogue={catalogue} />
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      </div>
    </article>
  );
}
