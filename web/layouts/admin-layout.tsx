import { Outlet } from 'react-router';
import type { Route } from './+types/admin-layout';
import { ADMIN_MENU, SiteChrome } from '../features/shell/index.ts';
import { requireAdmin } from '../lib/guards.ts';
import { SideMenu } from './side-menu.tsx';
// The moderation queues and item forms: linked on admin pages only (ADR 024).
import '../styles/items.css';

export function loader({ context, url }: Route.LoaderArgs) {
  requireAdmin(context.user, url, context.config.twoFactorForAdmins);
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
