// How the client build groups modules into chunks (issue 11, docs/decisions/020). Left to itself the bundler makes a
// chunk per shared module, and a guest's first page fetched thirty files under 2 KiB: each one a request, and gzip
// compresses small files badly. Two groups collect what every guest page runs, by path:
// - "shell": the root's and the default layout's code (header, footer, stores, the API client's front, the plain
//   contract constants) and React's JSX runtime;
// - "catalog": the cards, favourites and (beam) avatars that the home page, /projects and a service page share, and
//   "listing": what only the listings need (filters, the list's data).
// A group takes every module its pattern matches, wherever it is imported from: what only a signed-in person, a form
// or an admin page needs (the socket, the side menus' titles, the API transport) is kept out of the patterns, so it
// stays in chunks of its own, loaded where it is used. Route modules are entries of their own and stay separate files.
import type { Plugin, Rolldown } from 'vite';

type CodeSplitting = Exclude<NonNullable<Rolldown.OutputOptions['codeSplitting']>, boolean>;

const SHELL = [
  /[\\/]web[\\/]lib[\\/](?!api-client|upload|socket)[^\\/]+\.tsx?$/,
  /[\\/]web[\\/]components[\\/]ui[\\/](app-link|breadcrumbs|price|progress-bar|toaster)\.tsx$/,
  /[\\/]web[\\/]features[\\/]shell[\\/](?!signed-in\.|logout-|role-toggle|page-titles|error-screen|search-)[^\\/]+\.tsx?$/,
  /[\\/]web[\\/]features[\\/]auth[\\/]safe-target\.ts$/,
  /[\\/]contract[\\/](constants|page-messages|text|catalog-constants)\.ts$/,
  /[\\/]node_modules[\\/]react[\\/](jsx-runtime\.js|cjs[\\/]react-jsx-runtime\.production\.js)$/,
];

// A listing's own code (the filters, the list's data and SEO text): the home page and /projects, not a service page.
const LISTING = [/[\\/]web[\\/]features[\\/]catalog[\\/](listing-(?!filters\.)[a-z-]+|filters)\.tsx?$/];

// Taken before LISTING (a higher priority), so that the cards a listing imports stay here.
const CATALOG = [
  /[\\/]web[\\/]features[\\/]catalog[\\/](?!listing-|filters\.|service-ld\.)/,
  /[\\/]web[\\/]features[\\/]favorites[\\/]favorite-button\.tsx$/,
  /[\\/]web[\\/]components[\\/]ui[\\/](avatar|beam-avatar)\.tsx$/,
];

const matches = (patterns: RegExp[]) => (id: string) => !id.includes('?') && patterns.some((p) => p.test(id));
/** The bundler's own runtime helpers, which every page needs: in the shell rather than a file of their own. */
const RUNTIME = /^\0?rolldown[:/]runtime/;

const codeSplitting: CodeSplitting = {
  groups: [
    { name: 'shell', test: (id) => RUNTIME.test(id) || matches(SHELL)(id), priority: 2 },
    { name: 'catalog', test: matches(CATALOG), priority: 1 },
    { name: 'listing', test: matches(LISTING), priority: 0 },
  ],
};

/** The groups above for the browser's build only (the server's build is one file). */
export function guestChunks(): Plugin {
  return {
    name: 'podryad-guest-chunks',
    configEnvironment(name) {
      if (name === 'client') return { build: { rollupOptions: { output: { codeSplitting } } } };
    },
  };
}
