// The public catalogue: listings (data, filters, SEO), cards, detail page parts, item addresses and texts.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { Budget, FreelancerCardView, ProjectCardView, ServiceCardView } from './cards.tsx';
export { Gallery } from './gallery.tsx';
export { JsonLd } from './json-ld.tsx';
export { loadListing } from './listing-data.ts';
export { clientListing, ListingPage } from './listing.tsx';
export { listingSeo } from './listing-seo.ts';
export { LevelBadge, OnlineStatus, Rating } from './parts.tsx';
export { findCategory, findSub, isUuid, servicePath } from './paths.ts';
export { PersonCard } from './person-card.tsx';
export { PostProjectCta } from './post-project-cta.tsx';
export { absoluteUrl, breadcrumbLd, excerpt, seoMeta } from './seo.ts';
export { serviceLd } from './service-ld.ts';
export { FORMS, attachmentLabel, count, daysText, ordersDoneText, revisionsText } from './texts.ts';
