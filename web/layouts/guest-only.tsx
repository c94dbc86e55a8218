import { Outlet } from 'react-router';
import type { Route } from './+types/guest-only';
import { requireGuest } from '../lib/guards.ts';

export function loader({ context, url }: Route.LoaderArgs) {
  requireGuest(context.user, url);
  return null;
}

export default function GuestOnly() {
  return <Outlet />;
}
