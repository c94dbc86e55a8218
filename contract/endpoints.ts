import type { EndpointDef } from './endpoint.ts';
import type { RouteName } from './routes.ts';
import { adminEndpoints } from './endpoints/admin.ts';
import { authEndpoints } from './endpoints/auth.ts';
import { blogEndpoints } from './endpoints/blog.ts';
import { bidEndpoints } from './endpoints/bids.ts';
import { offerEndpoints } from './endpoints/offers.ts';
import { chatEndpoints } from './endpoints/chat.ts';
import { dashboardEndpoints } from './endpoints/dashboard.ts';
import { favoriteEndpoints } from './endpoints/favorites.ts';
import { fileEndpoints } from './endpoints/files.ts';
import { healthEndpoints } from './endpoints/health.ts';
import { lookupEndpoints } from './endpoints/lookups.ts';
import { moderationEndpoints } from './endpoints/moderation.ts';
import { notificationEndpoints } from './endpoints/notifications.ts';
import { orderEndpoints } from './endpoints/orders.ts';
import { paymentEndpoints } from './endpoints/payments.ts';
import { peopleEndpoints } from './endpoints/people.ts';
import { platformEndpoints } from './endpoints/platform.ts';
import { reviewEndpoints } from './endpoints/reviews.ts';
import { appealEndpoints } from './endpoints/appeals.ts';
import { disputeEndpoints } from './endpoints/disputes.ts';
import { privacyEndpoints } from './endpoints/privacy.ts';
import { projectEndpoints } from './endpoints/projects.ts';
import { searchEndpoints } from './endpoints/search.ts';
import { serviceEndpoints } from './endpoints/services.ts';
import { userEndpoints } from './endpoints/users.ts';
import { twoFactorEndpoints } from './endpoints/two-factor.ts';
import { passkeyEndpoints } from './endpoints/passkeys.ts';

// The whole API's table (ADR 015): every name of ROUTES with its schemas and guard. Server only at run time (the
// browser imports its types): the server registers routes from it, the tests walk it.
export const endpoints = {
  ...healthEndpoints,
  ...lookupEndpoints,
  ...platformEndpoints,
  ...serviceEndpoints,
  ...authEndpoints,
  ...twoFactorEndpoints,
  ...passkeyEndpoints,
  ...userEndpoints,
  ...privacyEndpoints,
  ...fileEndpoints,
  ...chatEndpoints,
  ...adminEndpoints,
  ...projectEndpoints,
  ...favoriteEndpoints,
  ...peopleEndpoints,
  ...searchEndpoints,
  ...moderationEndpoints,
  ...bidEndpoints,
  ...orderEndpoints,
  ...offerEndpoints,
  ...paymentEndpoints,
  ...dashboardEndpoints,
  ...reviewEndpoints,
  ...disputeEndpoints,
  ...notificationEndpoints,
  ...blogEndpoints,
  ...appealEndpoints,
} satisfies { [N in RouteName]: EndpointDef };

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
