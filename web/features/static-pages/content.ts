// Static informational pages of the marketplace, by slug; each page's text is in its own file under `pages/`.

import { aboutPage } from './pages/about.ts';
import { conditionsPage } from './pages/conditions.ts';
import { contactsPage } from './pages/contacts.ts';
import { faqPage } from './pages/faq.ts';
import { helpPage } from './pages/help.ts';
import type { StaticPage, StaticPageSlug } from './types.ts';

export {
  LIVE_FEATURES,
  SUPPORT_EMAIL,
  type Feature,
  type PageLink,
  type Pending,
  type StaticPage,
  type StaticPageSlug,
  type StaticSection,
  type Text,
} from './types.ts';

export const staticPages: Record<StaticPageSlug, StaticPage> = {
  faq: faqPage,
  help: helpPage,
  about: aboutPage,
  contacts: contactsPage,
  conditions: conditionsPage,
};
