// The blog (ADR 037): the public list's cards and pager, the article's JSON-LD, the admin's editor.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { BlogCardView, BlogPager } from './cards.tsx';
export { articleLd } from './article-ld.ts';
export { BlogEditor } from './editor.tsx';
