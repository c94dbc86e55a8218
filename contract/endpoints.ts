import type { EndpointDef } from './endpoint.ts';
import type { RouteName } from './routes.ts';
import { favoriteEndpoints } from './endpoints/favorites.ts';
import { lookupEndpoints } from './endpoints/lookups.ts';
import { moderationEndpoints } from './endpoints/moderation.ts';
import { peopleEndpoints } from './endpoints/people.ts';
import { projectEndpoints } from './endpoints/projects.ts';
import { searchEndpoints } from './endpoints/search.ts';
import { serviceEndpoints } from './endpoints/services.ts';

// The whole API's table (ADR 015): every name of ROUTES with its schemas and guard. Server only at run time (the
// browser imports its types): the server registers routes from it, the tests walk it.
export const endpoints = {
  ...lookupEndpoints,
  ...serviceEndpoints,
  ...projectEndpoints,
  ...favoriteEndpoints,
  ...peopleEndpoints,
  ...searchEndpoints,
  ...moderationEndpoints,
} satisfies { [N in RouteName]?: EndpointDef };

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
