import { isbot } from 'isbot';
import { ServerRouter, type AppLoadContext, type EntryContext } from 'react-router';
import { BOOT_ON_INTENT_ROUTES, bootOnIntent } from './lib/boot-on-intent.ts';
import { CatalogueContext } from './lib/catalogue.ts';
import { deferredReady } from './lib/deferred.tsx';
import { NonceContext } from './lib/nonce.ts';
import { renderDocument } from './lib/render-document.ts';

export const streamTimeout = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const userAgent = request.headers.get('user-agent');
  const crawler = isbot(userAgent);

  // SPEC §2: search crawlers are not shown the error page, only a bare 404.
  if (crawler && responseStatusCode === 404) {
    const error = Object.values(routerContext.staticHandlerContext.errors ?? {})[0] as { statusText?: string } | undefined;
    return new Response(error?.statusText || 'Page not found', {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  }

  const nonce = loadContext.nonce;
  // A guest's reading page starts the app when they reach for it (web/lib/boot-on-intent.ts).
  const leaf = routerContext.staticHandlerContext.matches.at(-1)?.route.id;
  const onIntent = !loadContext.user && !!leaf && BOOT_ON_INTENT_ROUTES.has(leaf);
  const catalogue = await loadContext.catalogue();
  await deferredReady();
  // Everybody gets the whole document at once, as crawlers always did. The loaders have run before the render and
  // nothing else suspends for long (the deferred parts are imported above, lazy parts resolve from memory), so the
  // wait is a moment; sent at the shell, React Router's stream transfer is a streamed boundary, and its completion is
  // React's inline runtime ($RB, $RV, $RC: 0.6 KiB gzip on every page, issue 31).
  const whole = await renderDocument(
    <NonceContext.Provider value={nonce}>
      <CatalogueContext.Provider value={catalogue}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </CatalogueContext.Provider>
    </NonceContext.Provider>,
    {
      nonce,
      timeoutMs: streamTimeout + 1000,
      onError() {
        // A part of the page failed and is left to the browser; a failed shell rejects, and React Router answers it.
        responseStatusCode = 500;
      },
    },
  );
  responseHeaders.set('content-type', 'text/html; charset=utf-8');
  return new Response(onIntent ? bootOnIntent(whole, nonce) : whole, { headers: responseHeaders, status: responseStatusCode });
}
