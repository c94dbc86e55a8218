import { data as answer, redirect } from 'react-router';
import type { Route } from './+types/service-detail';
import type { ServiceCard } from '#contract/catalog';
import type { Currency } from '#contract/constants';
import { currentUser } from '../lib/current-user.ts';
import { errorMeta } from '../lib/meta.ts';
import { pageNotFound } from '../lib/guards.ts';
import { deferred } from '../lib/deferred.tsx';
import { useCurrency } from '../lib/currency-store.ts';
import type { ReviewsPage } from '../features/reviews/index.ts';
import { excerpt, findCategory, findSub, isUuid, seoMeta } from '../features/catalog/index.ts';

// /services/{slug}/{serviceId}: one service (kwork). The slug is its category's: any other slug answers with a
// permanent redirect to the canonical address.

/** How many of the seller's other services the page shows. */
const OTHERS = 4;

export async function loader({ params, context, url }: Route.LoaderArgs) {
  const id = params.serviceId;
  if (!isUuid(id)) throw pageNotFound();
  // Only the seller and admins see a service that is not public: the services policy decides, a 404 otherwise.
  const res = await context.read('services.get', { params: { id } });
  if (res.status >= 500) throw answer('Server error', { status: 500 });
  if (!res.ok) throw pageNotFound();
  const service = res.body.result;
  const own = context.user?._id === service.seller._id;

  const category = findCategory(await context.catalogue(), service.category);
  if (category && params.slug !== category.slug) {
    throw redirect(`/services/${category.slug}/${id}${url.search}`, 301);
  }
  const slug = category?.slug ?? params.slug;
  const sub = findSub(category, service.sub);

  const [offered, reviewed] = await Promise.all([
    // Four others: one more than that, in case this one is among them.
    context.read('services.ofSeller', { params: { id: service.seller._id }, query: { limit: OTHERS + 1 } }),
    // Only a public service has a public list of reviews; its page for the seller and admins shows none.
    service.status === 'active' ? context.read('reviews.ofService', { params: { id }, query: { limit: 5 } }) : null,
  ]);
  const others: ServiceCard[] = offered.ok ? offered.body.result.filter((s) => s._id !== service._id).slice(0, OTHERS) : [];
  const reviews: ReviewsPage | null = reviewed?.ok ? { result: reviewed.body.result, total: reviewed.body.total, next: reviewed.body.next } : null;

  return {
    service,
    own,
    others,
    reviews,
    path: `/services/${slug}/${id}`,
    category: { slug, title: category?.title ?? service.category_title },
    sub: sub ? { slug: sub.slug, title: sub.title } : null,
  };
}

export const meta: Route.MetaFunction = ({ data, matches, error }) => {
  if (error || !data) return errorMeta(matches, error);
  const { service } = data;
  return seoMeta(matches, {
    title: service.title,
    description: excerpt(service.description),
    path: data.path,
    type: 'product',
    image: service.images[0] ?? service.cover,
    noindex: service.status !== 'active',
  });
};

// The page's code comes with the first interaction (or at once for a signed-in person, or when the currency changes
// the prices): until then the server's HTML stays as it is (docs/decisions/020).
type Data = Awaited<ReturnType<Route.ClientLoaderArgs['serverLoader']>>;

const Page = deferred<{ data: Data; currency: Currency }>(
  'service',
  () => import('./service-page.tsx').then((m) => m.servicePage()),
  '.service-page',
  () => currentUser() !== null,
);

// A client-side navigation brings the page's code with its data: the page then shows at once, and the progress bar
// covers the wait (a page suspended on its code would leave the previous one on screen under the new address).
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs): Promise<Data> {
  const [data] = await Promise.all([serverLoader(), Page.load().catch(() => {})]);
  return data;
}

export default function ServiceDetailPage({ loaderData }: Route.ComponentProps) {
  return <Page data={loaderData} currency={useCurrency()} />;
}
