import { Outlet, isRouteErrorResponse, useRouteError } from 'react-router';
import { SiteChrome } from '../features/shell/site-chrome.tsx';
import { ErrorScreen } from '../features/shell/error-screen.tsx';

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
