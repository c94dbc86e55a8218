import { data as answer } from 'react-router';
import type { Route } from './+types/blog-post';
import { blogPath } from '#contract/blog';
import { trimEnd } from '#contract/text';
import { errorMeta } from '../lib/meta.ts';
import { pageNotFound } from '../lib/guards.ts';
import { useShell } from '../lib/use-shell.ts';
import { formatDate } from '../lib/dates.ts';
import { Breadcrumbs } from '../components/ui/breadcrumbs.tsx';
import { Picture } from '../components/ui/picture.tsx';
import { AppLink } from '../components/ui/app-link.tsx';
import { breadcrumbLd, JsonLd, seoMeta } from '../features/catalog/index.ts';
import { articleLd } from '../features/blog/index.ts';
import '../styles/blog.css';

// /blog/{id}: one article, its body the HTML the server rendered and sanitised when it was saved (ADR 037). A draft
// or an unknown id is SPEC's 404 (HTTP 404); an admin sees a draft as its preview.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loader({ params, context }: Route.LoaderArgs) {
  if (!UUID.test(params.id)) throw pageNotFound();
  const res = await context.read('blog.get', { params: { id: params.id } });
  if (res.status >= 500) throw answer('Server error', { status: 500 });
  if (!res.ok) throw pageNotFound();
  return { post: res.body.result, path: blogPath(res.body.result._id) };
}

export const meta: Route.MetaFunction = ({ data, matches, error }) => {
  if (error || !data) return errorMeta(matches, error);
  const { post } = data;
  return [
    ...seoMeta(matches, {
      title: post.title,
      description: post.description,
      path: data.path,
      type: 'article',
      image: post.cover,
      noindex: post.status !== 'published',
    }),
    ...(post.published_at ? [{ property: 'article:published_time', content: post.published_at }] : []),
    { property: 'article:modified_time', content: post.updated_at },
  ];
};

export default function BlogPostPage({ loaderData }: Route.ComponentProps) {
  const { post, path } = loaderData;
  const { config } = useShell();
  const siteUrl = trimEnd(config.siteUrl, '/');
  const crumbs = [{ label: 'Главная', to: '/' }, { label: 'Блог', to: '/blog' }, { label: post.title }];
  return (
    <article className="page article">
      <Breadcrumbs items={crumbs} />
      <JsonLd data={breadcrumbLd(siteUrl, crumbs.map((c) => ({ name: c.label, path: c.to ?? path })))} />
      {post.status === 'published' ? (
        <JsonLd data={articleLd(siteUrl, config.brand, post, path)} />
      ) : (
        <p className="notice" role="note">
          Черновик: статья не опубликована, её видят только администраторы.{' '}
          <AppLink to={`/admin/blog/${post._id}/edit`}>Редактировать</AppLink>
        </p>
      )}
      <header className="article__head">
        <h1 className="page__title article__title">{post.title}</h1>
        <p className="article__meta muted">
          {post.published_at && <time dateTime={post.published_at}>{formatDate(post.published_at)}</time>}
          {post.author && <span> · {post.author.name}</span>}
        </p>
        <p className="article__lead">{post.description}</p>
      </header>
      {post.cover && (
        <div className="article__cover">
          <Picture src={post.cover} alt="" sizes="(max-width: 680px) 100vw, 640px" priority width={960} height={720} />
        </div>
      )}
      {/* Server HTML, rendered from Markdown and sanitised by an allow-list when the post was saved. */}
      <div className="article-body" dangerouslySetInnerHTML={{ __html: post.html }} />
      <footer className="article__foot">
        <AppLink to="/blog" className="btn btn--ghost">
          ← Все статьи
        </AppLink>
      </footer>
    </article>
  );
}
