import { useParams } from 'react-router';
import type { Route } from './+types/freelancers';
import { ListingPage } from '../features/catalog/listing-page.tsx';
import { categoryParam } from '../features/catalog/category-param.ts';
import { errorMeta, pageMeta } from '../features/shell/meta.ts';

const FREELANCER_SORTS = [
  ['rating', 'По рейтингу'],
  ['orders', 'По числу заказов'],
  ['new', 'Новые'],
] as const;

export async function loader({ params, context }: Route.LoaderArgs) {
  const category = await categoryParam(params.slug, context.catalogue);
  return { category: category && { slug: category.slug, title: category.title } };
}

export const meta: Route.MetaFunction = ({ data, matches, error }) =>
  error ? errorMeta(matches, error) : pageMeta(matches, data?.category ? `Фрилансеры: ${data.category.title}` : 'Фрилансеры');

export default function FreelancersPage() {
  const { slug } = useParams();
  return (
    <ListingPage
      cacheKey="freelancers"
      basePath="/freelancers"
      title="Фрилансеры"
      activeSlug={slug}
      sorts={FREELANCER_SORTS}
      empty="Здесь появятся продавцы выбранной категории с рейтингом и статусом «в сети»."
    />
  );
}
