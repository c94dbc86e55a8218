import { Outlet, redirect, redirectDocument } from 'react-router';
import type { Route } from './+types/route-rules';

// SPEC §2: on every navigation a server-side route-rules lookup by path can redirect.
// This pathless layout's loader revalidates on each navigation, so the lookup runs for document
// requests and client navigations alike; an absolute redirect leaves by a full page load.
export async function loader({ context, request }: Route.LoaderArgs) {
  const to = await context.routeRule(new URL(request.url).pathname);
  if (to) throw /^https?:\/\//i.test(to) ? redirectDocument(to) : redirect(to);
  return null;
}

export const shouldRevalidate = () => true;

export default function RouteRules() {
  return <Outlet />;
}
