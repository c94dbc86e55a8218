import { Writable } from 'node:stream';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { ServerRouter, type AppLoadContext, type EntryContext } from 'react-router';
import { BOOT_ON_INTENT_ROUTES, bootOnIntent } from './lib/boot-on-intent.ts';
import { CatalogueContext } from './lib/catalogue.ts';
import { deferredReady } from './lib/deferred.tsx';
import { NonceContext } from './lib/nonce.ts';

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
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Everybody gets the whole document at once, as crawlers always did. The loaders have run before the render and
    // nothing else suspends for long (the deferred parts are imported above, lazy parts resolve from memory), so
    // the wait is a moment; sent at the shell, React Router's stream transfer is a streamed boundary, and its
    // completion is React's inline runtime ($RB, $RV, $RC: 0.6 KiB gzip on every page, issue 31).
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <CatalogueContext.Provider value={catalogue}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </CatalogueContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        // The document goes as one buffer (below), so React's progressive outlining buys nothing: past 12.8 KB it sent
        // every later boundary of more than 500 bytes as a hidden copy swapped in by a script at the end, and the page
        // first painted their fallbacks (a signed-in person's order form, a 44 px placeholder, then the form).
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onAllReady() {
          shellRendered = true;
          responseHeaders.set('content-type', 'text/html; charset=utf-8');
          // Collected and answered as one buffer: React writes the document in 2 KiB pieces, and each piece went
          // through four streams and a compressor's round trip to its thread (a fifth of a render's time, issue 31).
          const chunks: Uint8Array[] = [];
          const body = new Writable({
            write(chunk: Uint8Array, _encoding, done) {
              chunks.push(chunk);
              done();
            },
          });
          body.on('finish', () => {
            clearTimeout(timeout);
            const whole = Buffer.concat(chunks);
            resolve(new Response(onIntent ? bootOnIntent(whole, nonce) : whole, { headers: responseHeaders, status: responseStatusCode }));
          });
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    // Cleared once the document is whole (above; React calls back only after this line): a pending timer holds
    // `abort`, and with it React's whole render (its segments, its state), for six seconds. At 150 renders a second
    // that kept some 900 renders alive: the heap left by a full collection was 132 MB with them, 96 MB without
    // (issue 31, ADR 075).
    const timeout = setTimeout(abort, streamTimeout + 1000);
  });
}
