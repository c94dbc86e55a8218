import { lazy, Suspense } from 'react';
import { redirect, useLocation } from 'react-router';
import type { Route } from './+types/services';
import type { ServiceCard } from '#contract/catalog';
import { clientListing, ListingPage, listingSeo, loadListing } from '../features/catalog/index.ts';
import { currentPath } from '../features/shell/index.ts';
import { currentUser } from '../lib/current-user.ts';
import { errorMeta } from '../lib/meta.ts';
import { deferred } from '../lib/deferred.tsx';
import { readPersonal } from '../features/home/index.ts';
import { useShell } from '../lib/use-shell.ts';

// A guest's welcome on / (issue 15): the server's HTML, kept as it is in the browser (no code on a guest's first page).
const HomeHero = deferred<object>('hero', () => import('../features/home/index.ts').then((m) => m.HomeHero), null);

// A signed-in buyer's rows (issue 15): a chunk of their own, never fetched by a guest.
const PersonalRows = lazy(() => import('../features/home/index.ts').then((m) => ({ default: m.PersonalRows })));

// SPEC §2: the services category page is the home page (/, /services, /services/all, /services/{slug}).
const HOME_PATHS = new Set(['/', '/services', '/services/all']);

const isHome = (url: URL) => HOME_PATHS.has(url.pathname.replace(/(.)\/$/, '$1'));

export async function loader({ params, context, url }: Route.LoaderArgs) {
  // A seller opening the home page with no earlier page goes to the projects exchange.
  if (context.document && context.user?.active_role === 'seller' && isHome(url)) throw redirect('/projects');
  const [listing, personal] = await Promise.all([
    loadListing<ServiceCard>('services', params.slug, url, context),
    context.user && url.pathname === '/'
      ? readPersonal((name, input) => context.read(name, input as never).then((a) => (a.status === 200 ? a.body : null)))
      : null,
  ]);
  return { ...listing, personal };
}

export async function clientLoader({ url, serverLoader }: Route.ClientLoaderArgs) {
  // …or from the home page itself.
  const from = currentPath();
  if (currentUser()?.active_role === 'seller' && isHome(url) && (from === null || from === '/')) {
    throw redirect('/projects');
  }
  // SPEC's kept state: coming back, the listing is as the person left it. A guest's welcome on / comes with it.
  const [data] = await Promise.all([
    clientListing('services', url, serverLoader),
    !currentUser() && url.pathname === '/' ? HomeHero.load().catch(() => {}) : null,
  ]);
  return data;
}

export const meta: Route.MetaFunction = ({ data, matches, error }) =>
  error || !data ? errorMeta(matches, error) : listingSeo(matches, data, 'Услуги фрилансеров');

export default function ServicesPage({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  const { user } = useShell();
  return (
    <>
      {pathname === '/' && !user && <HomeHero />}
      {pathname === '/' && user && (
        <Suspense fallback={null}>
          <PersonalRows initial={'personal' in loaderData ? loaderData.personal : undefined} />
        </Suspense>
      )}
      <ListingPage
        kind="services"
        data={loaderData}
        title="Все услуги"
        crumb="Все услуги"
        empty={{
          text: 'Здесь появятся услуги фрилансеров. Вы фрилансер? Разместите свою услугу первым.',
          action: { to: '/profile/items/create', label: 'Разместить услугу' },
        }}
      />
    </>
  );
}
