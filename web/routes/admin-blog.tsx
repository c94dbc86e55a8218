import { data as answer } from 'react-router';
import type { Route } from './+types/admin-blog';
import { BLOG_LIMITS, blogPath } from '#contract/blog';
import { pageMeta } from '../lib/meta.ts';
import { pageNotFound } from '../lib/guards.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { DateCell } from '../components/ui/date-cell.tsx';
import { formatDate } from '../lib/dates.ts';
import { BlogPager } from '../features/blog/index.ts';
import '../styles/blog.css';

// /admin/blog: every post, drafts included, last changed first; a new one, or one to edit.

export async function loader({ context, url }: Route.LoaderArgs) {
  const raw = url.searchParams.get('page');
  const page = raw === null ? 1 : Number(raw);
  if (!Number.isInteger(page) || page < 1 || page > BLOG_LIMITS.maxPage) throw pageNotFound();
  const res = await context.read('admin.blog.list', { query: { page } });
  if (res.status >= 500) throw answer('Server error', { status: 500 });
  if (!res.ok) throw pageNotFound();
  return { posts: res.body.result, page, pages: Math.max(1, Math.ceil(res.body.total / BLOG_LIMITS.pageSize)) };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Блог');

export default function AdminBlogPage({ loaderData }: Route.ComponentProps) {
  const { posts, page, pages } = loaderData;
  return (
    <section className="page">
      <div className="page__head">
        <h1 className="page__title">Блог</h1>
        <AppLink to="/admin/blog/new" className="btn btn--primary">
          Новая статья
        </AppLink>
      </div>
      {posts.length === 0 ? (
        <p className="page__empty">Статей пока нет.</p>
      ) : (
        <table className="table admin-blog">
          <thead>
            <tr>
              <th scope="col">Статья</th>
              <th scope="col">Состояние</th>
              <th scope="col">Изменена</th>
            </tr>
          </thead>
          <tbody>
            {posts.map((post) => (
              <tr key={post._id}>
                <td data-label="Статья">
                  <AppLink to={`/admin/blog/${post._id}/edit`}>{post.title}</AppLink>
                  {post.status === 'published' && (
                    <>
                      {' '}
                      <AppLink to={blogPath(post._id)} className="muted">
                        (на сайте)
                      </AppLink>
                    </>
                  )}
                </td>
                <td data-label="Состояние">
                  {post.status === 'published' ? (
                    <span className="badge">Опубликована {post.published_at && formatDate(post.published_at)}</span>
                  ) : (
                    <span className="badge badge--muted">Черновик</span>
                  )}
                </td>
                <DateCell label="Изменена" date={post.updated_at} />
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <BlogPager page={page} pages={pages} base="/admin/blog" />
    </section>
  );
}
