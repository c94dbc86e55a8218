import { data as answer } from 'react-router';
import type { Route } from './+types/blog';
import { BLOG_LIMITS } from '#contract/blog';
import { errorMeta } from '../lib/meta.ts';
import { pageNotFound } from '../lib/guards.ts';
import { Breadcrumbs } from '../components/ui/breadcrumbs.tsx';
import { seoMeta } from '../features/catalog/index.ts';
import { BlogCardView, BlogPager } from '../features/blog/index.ts';
import '../styles/blog.css';

// /blog: published posts, newest first, twelve a page (?page=N), rendered on the server (ADR 037).

const DESCRIPTION = 'Статьи Подряда: как устроена безопасная сделка, как написать техническое задание и выбрать исполнителя.';

export async function loader({ context, url }: Route.LoaderArgs) {
  const raw = url.searchParams.get('page');
  const page = raw === null ? 1 : Number(raw);
  // A page that cannot exist is a 404, not an empty list (crawlers would keep it).
  if (!Number.isInteger(page) || page < 1 || page > BLOG_LIMITS.maxPage || (raw !== null && raw !== String(page))) throw pageNotFound();
  const res = await context.read('blog.list', { query: { page } });
  if (res.status >= 500) throw answer('Server error', { status: 500 });
  if (!res.ok) throw pageNotFound();
  const pages = Math.max(1, Math.ceil(res.body.total / BLOG_LIMITS.pageSize));
  if (page > pages) throw pageNotFound();
  return { posts: res.body.result, page, pages };
}

export const meta: Route.MetaFunction = ({ data, matches, error }) =>
  error || !data
    ? errorMeta(matches, error)
    : seoMeta(matches, {
        title: data.page > 1 ? `Блог — страница ${data.page}` : 'Блог',
        description: DESCRIPTION,
        path: data.page > 1 ? `/blog?page=${data.page}` : '/blog',
      });

export default function BlogPage({ loaderData }: Route.ComponentProps) {
  const { posts, page, pages } = loaderData;
  return (
    <section className="page blog">
      <Breadcrumbs items={[{ label: 'Главная', to: '/' }, { label: 'Блог' }]} />
      <h1 className="page__title">Блог</h1>
      {posts.length === 0 ? (
        <p className="page__empty">Статей пока нет. Загляните позже.</p>
      ) : (
        <ul className="blog__grid">
          {posts.map((post, i) => (
            <li key={post._id}>
              <BlogCardView post={post} eager={i === 0} />
            </li>
          ))}
        </ul>
      )}
      <BlogPager page={page} pages={pages} base="/blog" />
    </section>
  );
}
