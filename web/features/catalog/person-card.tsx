import type { PublicUser } from '#contract/catalog';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Avatar } from '../../components/ui/avatar.tsx';
import { displayName, userPath } from '../../lib/people.ts';
import { LevelBadge, OnlineStatus, Rating } from './parts.tsx';
import { FORMS, count } from './texts.ts';

/** The person behind a service (seller) or a project (customer): avatar, name, level, rating, presence. */
export function PersonCard({ person, role, children }: { person: PublicUser; role: 'seller' | 'customer'; children?: React.ReactNode }) {
  const name = displayName(person);
  return (
    <section className="card person-card" aria-label={role === 'seller' ? 'Продавец' : 'Заказчик'}>
      <div className="person-card__top">
        <Avatar name={name} src={person.avatar} size={56} />
        <div className="person-card__who">
          <span className="person-card__role">{role === 'seller' ? 'Продавец' : 'Заказчик'}</span>
          <AppLink to={userPath(person._id)} className="person-card__name">
            {name}
          </AppLink>
          <OnlineStatus online={person.online_status} showOffline />
        </div>
      </div>
      {role === 'seller' && (
        <dl className="person-card__facts">
          <dt>Уровень</dt>
          <dd>
            <LevelBadge level={person.level} />
          </dd>
          <dt>Рейтинг</dt>
          <dd>
            <Rating rating={person.rating} reviews={person.reviews_count} />
          </dd>
          <dt>Выполнено</dt>
          <dd>{count(person.orders_count, FORMS.orders)}</dd>
        </dl>
      )}
      {children}
    </section>
  );
}
