import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useRouteLoaderData,
  useRouteError,
  type ShouldRevalidateFunction,
} from 'react-router';
import { Suspense } from 'react';
import type { Route } from './+types/root';
import './lib/load-context.ts';
import { useNonce } from './lib/nonce.ts';
import { ErrorScreen, LogoutModal, ShellEffects } from './features/shell/index.ts';
import { ConsentGate } from './features/privacy/index.ts';
import { descriptionOf, errorMeta } from './lib/meta.ts';
import { ProgressBar } from './components/ui/progress-bar.tsx';
import { Toaster } from './components/ui/toaster.tsx';
import { useShell } from './lib/use-shell.ts';
import { isChunkLoadError, reloadOnce } from './lib/reload-guard.ts';
import stylesheet from './styles/index.css?url';

// zod reads its global config from here (zod/v4/core `globalConfig`): no JIT, so no eval probe.
const ZOD_JITLESS = 'globalThis.__zod_globalConfig={jitless:true}';

// The services listing keeps one scroll position for all its categories: it does not jump to the top.
const scrollKey = (location: { pathname: string; key: string }) =>
  /^\/(services(\/[^/]+)?)?$/.test(location.pathname) ? 'services' : location.key;

// `precedence` makes it a React resource: its <link> is sent ahead of the modules' preloads, since it blocks the
// first paint and they do not.
export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet, precedence: 'default' }];

export async function loader({ context }: Route.LoaderArgs) {
  const [catalogueUrl, rates, privacy] = await Promise.all([
    context.catalogueUrl(),
    context.rates(),
    // Whether the signed-in person consented to the current consent text (ADR 052): the gate asks if not.
    context.user ? context.read('privacy.status', {}) : null,
  ]);
  return { config: context.config, user: context.user, catalogueUrl, rates, privacy: privacy?.ok ? privacy.body.result : null };
}

// The shell's data (user, rates, the catalogue's address) is not refetched on navigation; a page that changed the
// account asks for it with useRevalidator(), which keeps the URL.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  currentUrl.href === nextUrl.href && defaultShouldRevalidate;

export const meta: Route.MetaFunction = ({ error, matches }) =>
  error ? errorMeta(matches, error) : [{ name: 'description', content: descriptionOf(matches) }];

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const shell = useRouteLoaderData<typeof loader>('root');
  return (
    <html lang="ru">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#2563eb" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* Before any module: zod must not probe `new Function` in the browser, which the CSP forbids and Chromium reports. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: ZOD_JITLESS }} />
        <Meta />
        <Links />
        {/* The catalogue tree, fetched before hydrating (web/lib/catalogue.ts); the browser keeps it. */}
        {shell && <link rel="preload" as="fetch" href={shell.catalogueUrl} crossOrigin="anonymous" />}
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} getKey={scrollKey} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { user } = useShell();
  const privacy = useRouteLoaderData<typeof loader>('root')?.privacy ?? null;
  return (
    <>
      <ProgressBar />
      <ShellEffects />
      <Outlet />
      <Toaster />
      {user && (
        <Suspense fallback={null}>
          <LogoutModal />
        </Suspense>
      )}
      {user && privacy && !privacy.consent.accepted && (
        <Suspense fallback={null}>
          <ConsentGate status={privacy} />
        </Suspense>
      )}
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error) && isChunkLoadError(error) && typeof window !== 'undefined') {
    reloadOnce('chunk-load-error');
  }
  return <ErrorScreen notFound={isRouteErrorResponse(error) && error.status === 404} />;
}
