import { Outlet } from 'react-router';
import type { Route } from './+types/profile-layout';
import { PROFILE_MENU, SiteChrome } from '../features/shell/index.ts';
import { requireSignedIn } from '../lib/guards.ts';
import { SideMenu } from './side-menu.tsx';

export function loader({ context, url }: Route.LoaderArgs) {
  requireSignedIn(context.user, url);
  return null;
}

export default function ProfileLayout() {
  return (
    <SiteChrome aside={<SideMenu label="Личный кабинет" items={PROFILE_MENU} />}>
      <Outlet />
    </SiteChrome>
  );
}

export { ErrorBoundary } from './default-layout.tsx';
