// The shape of the static pages' texts (FAQ, help, about, contacts, terms); the texts live in `pages/`.
//
// All user-facing text is in Russian. The placeholder {brand} is replaced by the
// renderer with the configured marketplace name — never hard-code the name there.
// Business rules mentioned in the texts (commission, minimums, time limits,
// seller levels, referral rates) must stay in sync with the platform settings.

export type StaticPageSlug = 'faq' | 'help' | 'about' | 'contacts' | 'conditions';

/**
 * Parts of the marketplace the texts may promise only once they exist (issue 15, item 14). A text that needs one
 * waits: it shows its `meanwhile` form, or nothing, until the feature is switched on here.
 */
export type Feature = 'disputes' | 'appeals';
export const LIVE_FEATURES: Record<Feature, boolean> = { disputes: true, appeals: true };

/** A text whose promise needs a feature: `text` once it is live, `meanwhile` (or nothing) until then. */
export interface Pending {
  needs: Feature;
  text: string;
  meanwhile?: string;
}
export type Text = string | Pending;

/** The real page a promise leads to. */
export interface PageLink {
  to: string;
  label: string;
}

export interface StaticSection {
  heading: string;
  needs?: Feature;
  link?: PageLink;
  paragraphs: Text[];
  items?: Text[];
}

export interface StaticPage {
  title: string;
  description: string;
  lead: Text;
  sections: StaticSection[];
  faq?: { question: string; needs?: Feature; link?: PageLink; answer: Text }[];
}

// Operator-configurable: replace with the real support mailbox of this instance.
export const SUPPORT_EMAIL = 'support@example.com';
