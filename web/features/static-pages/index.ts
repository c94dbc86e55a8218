// Static informational pages: their content and view.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { staticPages, type StaticPageSlug } from './content.ts';
export { StaticPageView } from './static-page-view.tsx';
