import { data as answer } from 'react-router';
import type { Route } from './+types/admin-blog-edit';
import { pageMeta } from '../lib/meta.ts';
import { pageNotFound } from '../lib/guards.ts';
import { Breadcrumbs } from '../components/ui/breadcrumbs.tsx';
import { BlogEditor } from '../features/blog/index.ts';
import '../styles/blog.css';

// /admin/blog/new and /admin/blog/{id}/edit: the post's form (ADR 037). An unknown id is SPEC's 404, status 404.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loader({ params, context }: Route.LoaderArgs) {
  if (params.id === undefined) return { post: null };
  if (!UUID.test(params.id)) throw pageNotFound();
  const res = await context.read('admin.blog.get', { params: { id: params.id } });
  if (res.status >= 500) throw answer('Server error', { status: 500 });
  if (!res.ok) throw pageNotFound();
  return { post: res.body.result };
}

export const meta: Route.MetaFunction = ({ matches, data }) => pageMeta(matches, data?.post ? `Статья: ${data.post.title}` : 'Новая статья');

export default function AdminBlogEditPage({ loaderData }: Route.ComponentProps) {
  const { post } = loaderData;
  return (
    <section className="page">
      <Breadcrumbs items={[{ label: 'Блог', to: '/admin/blog' }, { label: post ? post.title : 'Новая статья' }]} />
      <h1 className="page__title">{post ? 'Редактирование статьи' : 'Новая статья'}</h1>
      {/* A new key per post: the form starts from the saved fields after a save navigates here. */}
      <BlogEditor key={post ? `${post._id}:${post.updated_at}` : 'new'} post={post} />
    </section>
  );
}
