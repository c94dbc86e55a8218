import type { BlogCard } from '#contract/blog';
import { blogPath } from '#contract/blog';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Picture } from '../../components/ui/picture.tsx';
import { formatDate } from '../../lib/dates.ts';

/** A post in the public list: cover, title, description, date; the whole card is the link. */
export function BlogCardView({ post, eager = false }: { post: BlogCard; eager?: boolean }) {
  return (
    <article className="blog-card">
      <AppLink to={blogPath(post._id)} className="blog-card__link">
        <div className="blog-card__cover">
          {post.cover ? (
            <Picture src={post.cover} alt="" sizes="(max-width: 640px) 100vw, 400px" priority={eager} width={640} height={480} />
          ) : (
            <span className="blog-card__placeholder" aria-hidden>
              {post.title.slice(0, 1)}
            </span>
          )}
        </div>
        <div className="blog-card__body">
          <h2 className="blog-card__title">{post.title}</h2>
          <p className="blog-card__text">{post.description}</p>
          {post.published_at && (
            <time className="blog-card__date" dateTime={post.published_at}>
              {formatDate(post.published_at)}
            </time>
          )}
        </div>
      </AppLink>
    </article>
  );
}

/** Previous and next pages as plain links: crawlers follow them, no script needed. */
export function BlogPager({ page, pages, base }: { page: number; pages: number; base: string }) {
  if (pages <= 1) return null;
  const href = (n: number) => (n === 1 ? base : `${base}?page=${n}`);
  return (
    <nav className="blog-pager" aria-label="Страницы блога">
      {page > 1 ? (
        <AppLink to={href(page - 1)} className="btn btn--ghost" rel="prev">
          ← Новее
        </AppLink>
      ) : (
        <span />
      )}
      <span className="muted">
        Страница {page} из {pages}
      </span>
      {page < pages ? (
        <AppLink to={href(page + 1)} className="btn btn--ghost" rel="next">
          Раньше →
        </AppLink>
      ) : (
        <span />
      )}
    </nav>
  );
}
