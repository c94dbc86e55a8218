import type { ServerModule } from '../platform/module.ts';
import { adminModule } from './admin/index.ts';
import { appealsModule } from './appeals/index.ts';
import { authModule } from './auth/index.ts';
import { bidsModule } from './bids/index.ts';
import { blogModule } from './blog/index.ts';
import { privacyModule } from './privacy/index.ts';
import { chatModule } from './chat/index.ts';
import { dashboardModule } from './dashboard/index.ts';
import { disputesModule } from './disputes/index.ts';
import { docsModule } from './docs/index.ts';
import { favoritesModule } from './favorites/index.ts';
import { filesModule } from './files/index.ts';
import { healthModule } from './health/index.ts';
import { ledgerModule } from './ledger/index.ts';
import { lookupsModule } from './lookups/index.ts';
import { notificationsModule } from './notifications/index.ts';
import { offersModule } from './offers/index.ts';
import { ordersModule } from './orders/index.ts';
import { paymentsModule } from './payments/index.ts';
import { peopleModule } from './people/index.ts';
import { projectsModule } from './projects/index.ts';
import { ratesModule } from './rates/index.ts';
import { reviewsModule } from './reviews/index.ts';
import { routeRulesModule } from './route-rules/index.ts';
import { searchModule } from './search/index.ts';
import { seoModule } from './seo/index.ts';
import { servicesModule } from './services/index.ts';
import { usersModule } from './users/index.ts';

/**
 * The server's modules, in the order they are made: a module may use, while it is made, the services of those
 * before it (ADR 047). The architecture test fails for a folder of server/modules that is not here.
 */
export const MODULES: readonly ServerModule[] = [
  healthModule,
  lookupsModule,
  ratesModule,
  routeRulesModule,
  docsModule,
  authModule,
  usersModule,
  filesModule,
  seoModule,
  searchModule,
  servicesModule,
  projectsModule,
  favoritesModule,
  peopleModule,
  notificationsModule,
  chatModule,
  ordersModule,
  bidsModule,
  offersModule,
  paymentsModule,
  disputesModule,
  dashboardModule,
  reviewsModule,
  appealsModule,
  blogModule,
  privacyModule,
  adminModule,
  ledgerModule,
];

/**
 * Every way a module keeps uploaded files, each declared in its module's own folder (ADR 041). The files module
 * keeps a file while one of them names it and serves it to whom they admit.
 */
export const FILE_USES = MODULES.flatMap((module) => module.fileUses ?? []);
