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
import { fileURLToPath } from 'node:url';
import type { Plugin, Rolldown } from 'vite';

type CodeSplitting = Exclude<NonNullable<Rolldown.OutputOptions['codeSplitting']>, boolean>;

const SHELL = [
  /[\\/]web[\\/]lib[\\/](?!api-client|upload|socket|dates\.|live-refresh|money\.|people\.|preloadable\.)[^\\/]+\.tsx?$/,
  /[\\/]web[\\/]components[\\/]ui[\\/](app-link|progress-bar|toaster)\.tsx$/,
  /[\\/]web[\\/]features[\\/]shell[\\/](?!signed-in\.|logout-|role-toggle|page-titles|error-screen|search-)[^\\/]+\.tsx?$/,
  // Pages' meta (the listings' and the detail pages'), without the cards; the listings' deferred page and loader.
  /[\\/]web[\\/]features[\\/]catalog[\\/](seo|listing-seo|listing)\.tsx?$/,
  /[\\/]contract[\\/](constants|page-messages|text|catalog-constants)\.ts$/,
  /[\\/]node_modules[\\/]react[\\/](jsx-runtime\.js|cjs[\\/]react-jsx-runtime\.production\.js)$/,
];

// A listing's page (the list, the filters, their chips, the list's data and the client loader's kept state): the home
// page and /projects, loaded on first use (catalog/listing.tsx keeps the server's HTML meanwhile), not on a service
// page.
const LISTING = [/[\\/]web[\\/]features[\\/]catalog[\\/](listing-(page|filters|data)|filters|filter-chips)\.tsx?$/];

// Taken before LISTING (a higher priority), so that the cards a listing imports stay here.
const CATALOG = [
  /[\\/]web[\\/]features[\\/]catalog[\\/](?!listing[.-]|filters\.|filter-chips\.|service-ld\.|seo\.)/,
  /[\\/]web[\\/]features[\\/]favorites[\\/]favorite-button\.tsx$/,
  // A person's name and addresses (web/lib/people.ts): the cards' and the detail pages', not every page's.
  /[\\/]web[\\/]lib[\\/]people\.ts$/,
  /[\\/]web[\\/]components[\\/]ui[\\/](avatar|beam-avatar)\.tsx$/,
];

// What the pages' bodies share (dates, prices, breadcrumbs) and a guest's first page no longer runs: its pages'
// bodies are kept server HTML until first use (catalog/listing.tsx, routes/service-detail.tsx).
const PARTS = [
  /[\\/]web[\\/]lib[\\/]dates\.ts$/,
  /[\\/]web[\\/]components[\\/]ui[\\/](breadcrumbs|price)\.tsx$/,
];

const matches = (patterns: RegExp[]) => (id: string) => !id.includes('?') && patterns.some((p) => p.test(id));
/** The bundler's own runtime helpers, which every page needs: in the shell rather than a file of their own. */
const RUNTIME = /^\0?rolldown[:/]runtime/;

const codeSplitting: CodeSplitting = {
  groups: [
    { name: 'shell', test: (id) => RUNTIME.test(id) || matches(SHELL)(id), priority: 2 },
    { name: 'catalog', test: matches(CATALOG), priority: 1 },
    { name: 'parts', test: matches(PARTS), priority: 1 },
    { name: 'listing', test: matches(LISTING), priority: 0 },
  ],
};

// React Router's package.json points every condition at its development build, whose only difference from the
// production build beside it is `ENABLE_DEV_WARNINGS = true` (console warnings and their texts): the browser's build
// takes the production one.
const routerDist = fileURLToPath(new URL('./node_modules/react-router/dist/production/', import.meta.url));
const ROUTER_PRODUCTION: Record<string, string> = {
  'react-router': `${routerDist}index.mjs`,
  'react-router/dom': `${routerDist}dom-export.mjs`,
};

// React Router's module-level `var Form = React.forwardRef(…)` and `var AwaitContext = React.createContext(…)` carry
// no pure annotation, and each is followed by `Form.displayName = "Form"`: the bundler keeps them (and all they call:
// <Form>'s submission code, <NavLink>'s states) though nothing uses them (issue 31). Both calls only build an object:
// marked pure and without the name written on them (a name for React's developer tools), an unused one is left out.
const ROUTER_TOP_LEVEL_OBJECTS = /^var (\w+) = (React\d*)\.(forwardRef|createContext)\(/gm;
const DISPLAY_NAME = /^(\w+)\.displayName = "[^"\n]*";$/gm;

/** Marks React Router's unannotated component and context objects pure and drops their display names (see above). */
export function markRouterObjectsPure(code: string): string {
  const objects = new Set<string>();
  const marked = code.replace(ROUTER_TOP_LEVEL_OBJECTS, (_, name: string, react: string, call: string) => {
    objects.add(name);
    return `var ${name} = /* @__PURE__ */ ${react}.${call}(`;
  });
  return marked.replace(DISPLAY_NAME, (line, name: string) => (objects.has(name) ? '' : line));
}

// By its path inside the package: node_modules may be a link, and the chunks' ids are then the link's target.
const ROUTER_FILE = /[\\/]node_modules[\\/]react-router[\\/]dist[\\/]production[\\/][^\\/]+\.mjs$/;

/** The groups above for the browser's build only (the server's build is one file). */
export function guestChunks(): Plugin {
  return {
    name: 'podryad-guest-chunks',
    enforce: 'pre',
    resolveId(source) {
      if (this.environment.name === 'client' && this.environment.mode === 'build') return ROUTER_PRODUCTION[source];
    },
    transform(code, id) {
      if (this.environment.name === 'client' && this.environment.mode === 'build' && ROUTER_FILE.test(id)) {
        return { code: markRouterObjectsPure(code), map: null };
      }
    },
    configEnvironment(name) {
      if (name !== 'client') return;
      return { build: { rollupOptions: { output: { codeSplitting } } } };
    },
  };
}
