import { Outlet, isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorScreen, SiteChrome } from '../features/shell/index.ts';

export default function DefaultLayout() {
  return (
    <SiteChrome>
      <Outlet />
    </SiteChrome>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return <ErrorScreen notFound={isRouteErrorResponse(error) && error.status === 404} />;
}
