import { Outlet } from 'react-router';
import type { Route } from './+types/admin-layout';
import { requireAdmin } from '../features/shell/guards.ts';
import { SiteChrome } from '../features/shell/site-chrome.tsx';
import { ADMIN_MENU } from '../features/shell/page-titles.ts';
import { SideMenu } from './side-menu.tsx';

export function loader({ context, request }: Route.LoaderArgs) {
  requireAdmin(context.user, request);
  return null;
}

export default function AdminLayout() {
  return (
    <SiteChrome aside={<SideMenu label="Администрирование" items={ADMIN_MENU} />}>
      <Outlet />
    </SiteChrome>
  );
}

export { ErrorBoundary } from './default-layout.tsx';
