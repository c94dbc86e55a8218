import { Outlet, redirect, redirectDocument } from 'react-router';
import type { Route } from './+types/route-rules';

// SPEC §2: on every navigation a server-side route-rules lookup by path can redirect, or (ADR 036) close the path:
// a blocked path answers the 404 screen with HTTP 404, as a page that never existed.
// This pathless layout's loader revalidates on each navigation, so the lookup runs for document
// requests and client navigations alike; an absolute redirect leaves by a full page load.
export async function loader({ context, url }: Route.LoaderArgs) {
  const rule = await context.routeRule(url.pathname);
  if (!rule) return null;
  if ('block' in rule) throw new Response('Page not found', { status: 404, statusText: 'Page not found' });
  throw /^https?:\/\//i.test(rule.redirect) ? redirectDocument(rule.redirect) : redirect(rule.redirect);
}

export const shouldRevalidate = () => true;

export default function RouteRules() {
  return <Outlet />;
}
