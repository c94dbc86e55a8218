import { Outlet } from 'react-router';
import type { Route } from './+types/authenticated';
import { requireSignedIn } from '../lib/guards.ts';

export function loader({ context, url }: Route.LoaderArgs) {
  requireSignedIn(context.user, url);
  return null;
}

export default function Authenticated() {
  return <Outlet />;
}
