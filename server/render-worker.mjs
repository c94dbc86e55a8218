// Renders pages in a worker thread (server/render-pool.ts, ADR 077): React Router and React run here, on another
// core, while the server's own thread answers sockets and runs the database. Everything a loader asks of the server
// goes through its load context (contract/ssr.ts): its data comes with each render, and its functions are calls to
// the server's thread, answered there as they are for a render in process. Plain JavaScript: a worker does not go
// through the TypeScript loader.
import { register } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { PageRequest } from './lib/page-request.mjs';

/** @type {{ serverEntry: string; mode: 'development' | 'production'; hooks: string | null; compression: import('./render-pool.ts').DocumentCompression }} */
const { serverEntry, mode, hooks, compression } = workerData;

// Hooks registered on the server's thread do not reach a worker's imports on Node 20: React Router's production
// build (scripts/production-builds.mjs) is asked for here too, unless the imports already resolve to it.
if (hooks && import.meta.resolve('react-router').includes('/development/')) register(hooks);

const { createRequestHandler } = await import('react-router');
const handle = createRequestHandler(await import(serverEntry), mode);

/** The load context's functions that are calls to the server's thread (server/render-pool.ts answers them). */
const CALLS = ['rates', 'routeRule', 'read'];
/** The catalogue's tree and address, kept from the last render that brought them: they are sent when they change. */
let catalogue = { url: '', tree: [] };

/** Calls waiting for the server's answer, by id. */
const waiting = new Map();
let lastCall = 0;
/** The renders under way, by id: their requests' abort controllers. */
const renders = new Map();

function call(render, name, args) {
  const id = ++lastCall;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    parentPort.postMessage({ type: 'call', render, id, name, args });
  });
}

/**
 * A document's body compressed in `coding`, or null when it is sent as it is (no coding asked for, too small). Here
 * rather than on the server's thread: the server's thread is the busier one under renders, and one synchronous call
 * costs half the CPU of a call on libuv's pool, a stream and a callback (ADR 019, session 55).
 */
function compressed(body, coding) {
  if (!coding || body.length < compression.threshold) return null;
  if (coding === 'gzip') return gzipSync(body, compression.gzip);
  return brotliCompressSync(body, body.length <= compression.smallBytes ? compression.smallBrotli : compression.brotli);
}

async function render({ id, url, method, headers, context, catalogue: sent, asked, coding }) {
  const controller = new AbortController();
  renders.set(id, controller);
  try {
    if (sent.tree) catalogue = sent;
    const { url: catalogueUrl, tree } = catalogue;
    const loadContext = { ...context, catalogue: async () => tree, catalogueUrl: async () => catalogueUrl };
    for (const name of CALLS) loadContext[name] = (...args) => call(id, name, args);
    // What the server's thread sent with the render is answered here; anything else is asked for.
    if (asked.rates) loadContext.rates = async () => asked.rates.value;
    if (asked.routeRule) {
      const { path, rule } = asked.routeRule;
      loadContext.routeRule = (asking) => (asking === path ? Promise.resolve(rule) : call(id, 'routeRule', [asking]));
    }
    const response = await handle(new PageRequest(url, { method, headers }, controller.signal), loadContext);
    // The whole answer in one message, its body a buffer of its own moved rather than copied: a document is one buffer
    // already (web/entry.server.tsx), and a data request's stream ends with its loaders.
    let body = response.body ? new Uint8Array(await response.arrayBuffer()) : null;
    // A document is compressed here; a data request is sent on as a stream by the server's thread, and compressed there.
    const document = response.headers.get('content-type')?.startsWith('text/html') && !response.headers.has('content-encoding');
    const coded = body && document ? compressed(body, coding) : null;
    const answerHeaders = coded ? new Headers(response.headers) : response.headers;
    if (coded) {
      // A copy of its own to move: a small result of zlib's can be a slice of Node's shared pool of buffers.
      body = new Uint8Array(coded);
      answerHeaders.set('content-encoding', coding);
      if (!/accept-encoding/iu.test(answerHeaders.get('vary') ?? '')) answerHeaders.append('vary', 'accept-encoding');
    }
    parentPort.postMessage(
      { type: 'answer', render: id, status: response.status, headers: [...answerHeaders], body },
      body ? [body.buffer] : [],
    );
  } catch (error) {
    parentPort.postMessage({ type: 'fail', render: id, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  } finally {
    renders.delete(id);
  }
}

parentPort.on('message', (message) => {
  switch (message.type) {
    case 'render':
      void render(message);
      break;
    case 'called': {
      const pending = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.ok) pending?.resolve(message.value);
      else pending?.reject(new Error(message.error));
      break;
    }
    case 'abort':
      renders.get(message.render)?.abort();
      break;
  }
});

parentPort.postMessage({ type: 'ready' });
