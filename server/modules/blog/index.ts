// The blog (ADR 037): admins' Markdown posts, rendered and sanitised on the server; the public list and articles.
export { BlogService, type BlogServiceDeps } from './service.ts';
export { blogRoutes } from './routes.ts';
export { blogPolicy, isPublishedPost } from './policy.ts';
export { renderMarkdown, sanitizeArticleHtml } from './markdown.ts';
export { blogFileUses } from './file-uses.ts';
export { blogModule } from './module.ts';
