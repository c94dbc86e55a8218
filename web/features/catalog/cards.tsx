import { CalendarClock, MessageSquareText } from '../../components/ui/icons.tsx';
import type { Project, PublicUser, ServiceCard } from '#contract/catalog';
import type { CatalogueCategory } from '#contract/ssr';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Avatar } from '../../components/ui/avatar.tsx';
import { Price } from '../../components/ui/price.tsx';
import { formatRelative } from '../../lib/dates.ts';
import { FavoriteButton } from '../favorites/index.ts';
import { excerpt } from './seo.ts';
import { projectPath, servicePath } from './paths.ts';
import { displayName, userPath } from '../../lib/people.ts';
import { Cover, LevelBadge, OnlineStatus, Rating } from './parts.tsx';
import { FORMS, count, daysText, ordersDoneText } from './texts.ts';

// Catalogue cards. Each has exactly one link (its title, stretched over the card): listings render dozens of
// cards, and the home page is benchmarked. The heart is a button above the link.

export function ServiceCardView({ service, catalogue, eager = false }: { service: ServiceCard; catalogue: readonly CatalogueCategory[]; eager?: boolean }) {
  const seller = service.seller;
  return (
    <article className="s-card">
      <div className="s-card__media">
        <Cover src={service.cover} seed={service._id} eager={eager} />
      </div>
      <FavoriteButton id={service._id} type="service" className="s-card__fav" />
      <div className="s-card__body">
        <h3 className="s-card__title">
          <AppLink to={servicePath(catalogue, service)} className="stretched-link">
            {service.title}
          </AppLink>
        </h3>
        <div className="s-card__seller">
          <Avatar name={displayName(seller)} src={seller.avatar} size={24} />
          <span className="s-card__name">{displayName(seller)}</span>
          <LevelBadge level={seller.level} />
        </div>
        <div className="s-card__foot">
          <Rating rating={service.rating} reviews={service.reviews_count} />
          <Price kopecks={service.price} prefix="от" className="s-card__price" />
        </div>
      </div>
    </article>
  );
}

/** "до 25 000 руб." or "Договорная" (a project without a budget). */
export function Budget({ budget, className }: { budget: number | null; className?: string }) {
  if (budget === null) return <span className={`price price--open ${className ?? ''}`}>Договорная</span>;
  return <Price kopecks={budget} prefix="до" className={className} />;
}

export function ProjectCardView({ project, catalogue }: { project: Project; catalogue: readonly CatalogueCategory[] }) {
  const customer = project.customer;
  return (
    <article className="p-card">
      <div className="p-card__main">
        <h3 className="p-card__title">
          <AppLink to={projectPath(catalogue, project)} className="stretched-link">
            {project.title}
          </AppLink>
        </h3>
        <p className="p-card__text">{excerpt(project.description, 260)}</p>
        <ul className="p-card__meta">
          <li>{project.category_title}</li>
          <li>
            <MessageSquareText size={14} aria-hidden /> {count(project.bids_count, FORMS.bids)}
          </li>
          {project.days !== null && (
            <li>
              <CalendarClock size={14} aria-hidden /> Срок: {daysText(project.days)}
            </li>
          )}
          <li>
            <time dateTime={project.created_at} suppressHydrationWarning>
              {formatRelative(project.created_at)}
            </time>
          </li>
        </ul>
      </div>
      <div className="p-card__side">
        <Budget budget={project.budget} className="p-card__budget" />
        <span className="p-card__customer">
          <Avatar name={displayName(customer)} src={customer.avatar} size={24} />
          <span>{displayName(customer)}</span>
        </span>
      </div>
      <FavoriteButton id={project._id} type="project" className="p-card__fav" />
    </article>
  );
}

export function FreelancerCardView({ person }: { person: PublicUser }) {
  return (
    <article className="f-card">
      <Avatar name={displayName(person)} src={person.avatar} size={64} />
      <div className="f-card__body">
        <h3 className="f-card__title">
          <AppLink to={userPath(person._id)} className="stretched-link">
            {displayName(person)}
          </AppLink>
        </h3>
        <p className="f-card__login">@{person.user_name}</p>
        <div className="f-card__row">
          <LevelBadge level={person.level} />
          <OnlineStatus online={person.online_status} />
        </div>
        <div className="f-card__row">
          <Rating rating={person.rating} reviews={person.reviews_count} />
        </div>
        <p className="f-card__orders">{ordersDoneText(person.orders_count)}</p>
      </div>
      <FavoriteButton id={person._id} type="freelancer" className="f-card__fav" />
    </article>
  );
}

/** A grey stand-in of a card while a page of the list loads. */
export function SkeletonCard({ variant }: { variant: 'service' | 'project' | 'freelancer' }) {
  return (
    <div className={`skeleton-card skeleton-card--${variant}`} aria-hidden>
      {variant === 'service' && <div className="skeleton skeleton-card__cover" />}
      <div className="skeleton-card__lines">
        <div className="skeleton" />
        <div className="skeleton" style={{ width: '70%' }} />
        <div className="skeleton" style={{ width: '45%' }} />
      </div>
    </div>
  );
}
