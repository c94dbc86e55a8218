import type { EndpointDef } from './endpoint.ts';
import type { RouteName } from './routes.ts';
import { adminEndpoints } from './endpoints/admin.ts';
import { authEndpoints } from './endpoints/auth.ts';
import { chatEndpoints } from './endpoints/chat.ts';
import { fileEndpoints } from './endpoints/files.ts';
import { healthEndpoints } from './endpoints/health.ts';
import { lookupEndpoints } from './endpoints/lookups.ts';
import { platformEndpoints } from './endpoints/platform.ts';
import { serviceEndpoints } from './endpoints/services.ts';
import { userEndpoints } from './endpoints/users.ts';

// The whole API's table (ADR 015): every name of ROUTES with its schemas and guard. Server only at run time (the
// browser imports its types): the server registers routes from it, the tests walk it.
export const endpoints = {
  ...healthEndpoints,
  ...lookupEndpoints,
  ...platformEndpoints,
  ...serviceEndpoints,
  ...authEndpoints,
  ...userEndpoints,
  ...fileEndpoints,
  ...chatEndpoints,
  ...adminEndpoints,
} satisfies { [N in RouteName]?: EndpointDef };

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
