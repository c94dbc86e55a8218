import { useEffect, useState } from 'react';
import type { ServiceCard } from '#contract/catalog';
import { api } from '../../lib/api.ts';
import { useShell } from '../../lib/use-shell.ts';
import { PostProjectCta, ServiceCardView } from '../catalog/index.ts';

/** How many cards each row shows. */
export const PERSONAL_ROW_SIZE = 4;

/** A signed-in buyer's own rows on the home page: what they opened last and what they saved. */
export interface Personal {
  recent: ServiceCard[];
  saved: ServiceCard[];
}

/** Both rows, read in process by the home page's server loader (or by the browser, below). */
export async function readPersonal(read: (name: 'favorites.recent' | 'favorites.items', input: object) => Promise<unknown>): Promise<Personal> {
  const [recent, saved] = await Promise.all([
    read('favorites.recent', { query: { limit: PERSONAL_ROW_SIZE } }),
    read('favorites.items', { query: { type: 'service', limit: PERSONAL_ROW_SIZE } }),
  ]);
  const cards = (answer: unknown) => ((answer as { result?: ServiceCard[] } | null)?.result ?? []).slice(0, PERSONAL_ROW_SIZE);
  return { recent: cards(recent), saved: cards(saved) };
}

function Row({ id, title, cards, more }: { id: string; title: string; cards: ServiceCard[]; more?: { to: string; label: string } }) {
  const { catalogue } = useShell();
  return (
    <section className="personal-row" aria-labelledby={id}>
      <div className="personal-row__head">
        <h2 id={id} className="personal-row__title">
          {title}
        </h2>
        {more && (
          <a href={more.to} className="personal-row__more">
            {more.label}
          </a>
        )}
      </div>
      <ul className="card-grid personal-row__cards">
        {cards.map((s) => (
          <li key={s._id}>
            <ServiceCardView service={s} catalogue={catalogue} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The signed-in buyer's home (issue 15): «Вы недавно смотрели» and «Избранное» above the listing, each shown only
 * when it has something. The server renders them from its loader; coming back to `/` in the browser (a kept
 * listing, ADR 020's state) they are read again. Loaded lazily by the route: never on a guest's path.
 */
export function PersonalRows({ initial }: { initial: Personal | null | undefined }) {
  const [fetched, setFetched] = useState<Personal | null>(null);
  useEffect(() => {
    if (initial) return;
    let live = true;
    readPersonal((name, input) => api.read(name, input as never).catch(() => null)).then((p) => live && setFetched(p), () => undefined);
    return () => {
      live = false;
    };
  }, [initial]);
  const personal = initial ?? fetched;
  // A buyer's invitation to post a project comes first (issue 25), with or without rows.
  const invitation = <PostProjectCta text="Не нашли готовую услугу? Опишите задачу — фрилансеры сами предложат цену и срок." />;
  if (!personal || (personal.recent.length === 0 && personal.saved.length === 0)) return invitation;
  return (
    <div className="personal-rows">
      {invitation}
      {personal.recent.length > 0 && <Row id="recent-title" title="Вы недавно смотрели" cards={personal.recent} />}
      {personal.saved.length > 0 && <Row id="saved-title" title="Избранное" cards={personal.saved} more={{ to: '/profile/saved', label: 'Всё избранное' }} />}
    </div>
  );
}
