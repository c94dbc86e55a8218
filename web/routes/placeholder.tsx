import { useMatches } from 'react-router';
import type { Route } from './+types/placeholder';
import { PAGE_TITLES, pageMeta } from '../features/shell/index.ts';

// A SPEC §2 page whose capability comes with a later issue: its layout and its heading.
const titleOf = (id: string | undefined) => PAGE_TITLES[id ?? ''] ?? '';

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, titleOf(matches.at(-1)?.id));

export default function Placeholder() {
  const id = useMatches().at(-1)?.id;
  return (
    <section className="page">
      <h1 className="page__title">{titleOf(id)}</h1>
      <p className="page__empty">Раздел скоро заработает.</p>
    </section>
  );
}
