import { useParams } from 'react-router';
import type { Route } from './+types/projects';
import { ListingPage } from '../features/catalog/listing-page.tsx';
import { categoryParam } from '../features/catalog/category-param.ts';
import { errorMeta, pageMeta } from '../features/shell/meta.ts';

const PROJECT_SORTS = [
  ['new', 'Новые'],
  ['budget_desc', 'Дороже'],
  ['bids', 'Больше откликов'],
] as const;

export async function loader({ params, context }: Route.LoaderArgs) {
  const category = await categoryParam(params.slug, context.catalogue);
  return { category: category && { slug: category.slug, title: category.title } };
}

export const meta: Route.MetaFunction = ({ data, matches, error }) =>
  error ? errorMeta(matches, error) : pageMeta(matches, data?.category ? `Проекты: ${data.category.title}` : 'Биржа проектов');

export default function ProjectsPage() {
  const { slug } = useParams();
  return (
    <ListingPage
      cacheKey="projects"
      basePath="/projects"
      title="Биржа проектов"
      activeSlug={slug}
      sorts={PROJECT_SORTS}
      empty="Здесь появятся проекты заказчиков: выберите категорию и откликайтесь."
    />
  );
}
