import type { Route } from './+types/projects';
import type { Project } from '#contract/catalog';
import { clientListing, ListingPage, listingSeo, loadListing } from '../features/catalog/index.ts';
import { errorMeta } from '../lib/meta.ts';

export async function loader({ params, context, url }: Route.LoaderArgs) {
  return loadListing<Project>('projects', params.slug, url, context);
}

export async function clientLoader({ url, serverLoader }: Route.ClientLoaderArgs) {
  return clientListing('projects', url, serverLoader);
}

export const meta: Route.MetaFunction = ({ data, matches, error }) =>
  error || !data ? errorMeta(matches, error) : listingSeo(matches, data, 'Биржа проектов');

export default function ProjectsPage({ loaderData }: Route.ComponentProps) {
  return (
    <ListingPage
      kind="projects"
      data={loaderData}
      title="Биржа проектов"
      crumb="Биржа проектов"
      postProject="Нужен исполнитель? Опишите задачу и бюджет — фрилансеры сами пришлют отклики с ценой и сроком."
      empty={{
        text: 'Здесь появятся проекты заказчиков. Нужна работа? Опишите задачу — фрилансеры откликнутся сами.',
        action: { to: '/profile/items/create', label: 'Разместить проект' },
      }}
    />
  );
}
