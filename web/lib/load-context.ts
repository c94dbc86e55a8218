import type { SsrContext } from '#contract/ssr';

// The server passes an SsrContext as React Router's load context (see server/web-handler.ts).
declare module 'react-router' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends SsrContext {}
}
