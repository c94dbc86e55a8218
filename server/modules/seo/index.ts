// sitemap.xml and robots.txt.
export { seoRoutes } from './routes.ts';
export { seoModule } from './module.ts';
