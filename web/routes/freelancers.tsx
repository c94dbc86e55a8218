import type { Route } from './+types/freelancers';
import type { PublicUser } from '#contract/catalog';
import { clientListing, ListingPage, listingSeo, loadListing } from '../features/catalog/index.ts';
import { errorMeta } from '../lib/meta.ts';

export async function loader({ params, context, url }: Route.LoaderArgs) {
  return loadListing<PublicUser>('freelancers', params.slug, url, context);
}

export async function clientLoader({ url, serverLoader }: Route.ClientLoaderArgs) {
  return clientListing('freelancers', url, serverLoader);
}

export const meta: Route.MetaFunction = ({ data, matches, error }) =>
  error || !data ? errorMeta(matches, error) : listingSeo(matches, data, 'Фрилансеры');

export default function FreelancersPage({ loaderData }: Route.ComponentProps) {
  return (
    <ListingPage
      kind="freelancers"
      data={loaderData}
      title="Фрилансеры"
      crumb="Фрилансеры"
      empty={{
        text: 'Здесь появятся продавцы с рейтингом и статусом «в сети». Умеете что-то делать хорошо? Станьте продавцом.',
        action: { to: '/become-seller', label: 'Стать продавцом' },
      }}
    />
  );
}
