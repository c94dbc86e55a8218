// A web app's server build for server/render-pool.test.ts: one route, whose loader asks every part of the load
// context, and an entry that answers with the loader's data as JSON. A render in a thread can then be compared with
// one in process. `?exit` ends the thread mid-render; `?wait` waits until the request is aborted; `?html=N` answers a
// document instead; `?rule=/path` asks the route rule of another path than the page's.
const loader = async ({ request, context }) => {
  const url = new URL(request.url);
  if (url.searchParams.has('exit')) process.exit(1);
  if (url.searchParams.has('wait')) {
    await new Promise((resolve) => request.signal.addEventListener('abort', resolve));
    await context.read('after.abort', {});
    return null;
  }
  const failed = (error) => ({ failed: error.message });
  const [read, missing, rates, rule, catalogue, catalogueUrl] = await Promise.all([
    context.read('services.get', { params: { id: url.searchParams.get('id') } }),
    context.read('broken', {}).catch(failed),
    context.rates(),
    context.routeRule(url.searchParams.get('rule') ?? url.pathname),
    context.catalogue(),
    context.catalogueUrl(),
  ]);
  const { user, nonce, config, document } = context;
  return { user, nonce, config, document, read, missing, rates, rule, catalogue, catalogueUrl, header: request.headers.get('x-test'), url: request.url };
};

export const entry = {
  module: {
    default: (request, status, headers, routerContext) => {
      // `?html=N`: a document of N paragraphs instead, for the compression in a thread.
      const paragraphs = Number(new URL(request.url).searchParams.get('html') ?? 0);
      if (paragraphs > 0) {
        const html = `<!DOCTYPE html><html><body>${'<p>Логотип для пекарни у дома</p>'.repeat(paragraphs)}</body></html>`;
        return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8', vary: 'cookie' } });
      }
      return new Response(JSON.stringify(routerContext.staticHandlerContext.loaderData), {
        status,
        headers: { 'content-type': 'application/json', 'x-rendered': 'yes' },
      });
    },
  },
};
export const routes = {
  root: { id: 'root', parentId: undefined, path: '', index: undefined, caseSensitive: undefined, module: { default: () => null, loader } },
};
export const assets = {
  entry: { module: '/entry.js', imports: [] },
  routes: {
    root: {
      id: 'root',
      path: '',
      module: '/root.js',
      imports: [],
      hasLoader: true,
      hasAction: false,
      hasClientLoader: false,
      hasClientAction: false,
      hasClientMiddleware: false,
      hasErrorBoundary: false,
    },
  },
  url: '/manifest.js',
  version: 'test',
};
export const basename = '/';
export const publicPath = '/';
export const assetsBuildDirectory = 'build/client';
export const future = {};
export const ssr = true;
export const isSpaMode = false;
export const prerender = [];
export const routeDiscovery = { mode: 'lazy', manifestPath: '/__manifest' };
