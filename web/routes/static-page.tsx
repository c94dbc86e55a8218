import { useLoaderData } from 'react-router';
import type { Route } from './+types/static-page';
import { staticPages, type StaticPageSlug, StaticPageView } from '../features/static-pages/index.ts';
import { pageMeta } from '../lib/meta.ts';

const slugOf = (routeId: string) => routeId.replace('static-', '') as StaticPageSlug;

export function loader({ context, url }: Route.LoaderArgs) {
  const slug = url.pathname.replace(/^\/|\/$/g, '') as StaticPageSlug;
  return { slug, brand: context.config.brand };
}

export const meta: Route.MetaFunction = ({ matches, data }) => {
  const page = staticPages[data?.slug ?? slugOf(matches.at(-1)?.id ?? '')];
  return page ? pageMeta(matches, page.title, page.description.replaceAll('{brand}', data?.brand ?? '')) : [];
};

export default function StaticPage() {
  const { slug, brand } = useLoaderData<typeof loader>();
  return <StaticPageView page={staticPages[slug]} brand={brand} />;
}
