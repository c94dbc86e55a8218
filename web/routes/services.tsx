import { redirect, useParams } from 'react-router';
import type { Route } from './+types/services';
import { ListingPage } from '../features/catalog/listing-page.tsx';
import { categoryParam } from '../features/catalog/category-param.ts';
import { errorMeta, pageMeta } from '../features/shell/meta.ts';
import { currentPath } from '../features/shell/navigation-history.ts';
import { currentUser } from '../features/shell/current-user.ts';

// SPEC §2: the services category page is the home page (/, /services, /services/all, /services/{slug}).
const HOME_PATHS = new Set(['/', '/services', '/services/all']);
const SERVICE_SORTS = [
  ['popular', 'Популярные'],
  ['new', 'Новые'],
  ['price_asc', 'Сначала дешевле'],
  ['price_desc', 'Сначала дороже'],
  ['rating', 'По рейтингу'],
] as const;

const isHome = (url: string) => HOME_PATHS.has(new URL(url).pathname.replace(/(.)\/$/, '$1'));

export async function loader({ params, context, request }: Route.LoaderArgs) {
  // A seller opening the home page with no earlier page goes to the projects exchange.
  if (context.document && context.user?.active_role === 'seller' && isHome(request.url)) throw redirect('/projects');
  const category = await categoryParam(params.slug, context.catalogue);
  return { category: category && { slug: category.slug, title: category.title } };
}

export async function clientLoader({ request, serverLoader }: Route.ClientLoaderArgs) {
  // …or from the home page itself.
  const from = currentPath();
  if (currentUser()?.active_role === 'seller' && isHome(request.url) && (from === null || from === '/')) {
    throw redirect('/projects');
  }
  return serverLoader();
}

export const meta: Route.MetaFunction = ({ data, matches, error }) =>
  error ? errorMeta(matches, error) : pageMeta(matches, data?.category?.title ?? 'Услуги фрилансеров');

export default function ServicesPage() {
  const { slug } = useParams();
  return (
    <ListingPage
      cacheKey="services"
      basePath="/services"
      title="Все услуги"
      activeSlug={slug}
      sorts={SERVICE_SORTS}
      empty="Здесь появятся услуги фрилансеров выбранной категории."
    />
  );
}
