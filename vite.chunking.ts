// How the client build groups modules into chunks (issue 11, docs/decisions/020). Left to itself the bundler makes a
// chunk per shared module, and a guest's first page fetched thirty files under 2 KiB: each one a request, and gzip
// compresses small files badly. Two groups collect what every guest page runs, by path:
// - "shell": the root's and the default layout's code (header, footer, stores, the API client's front, the plain
//   contract constants) and React's JSX runtime;
// - "catalog": the listings, cards, favourites and (beam) avatars that the home page, /projects and a service page share.
// What only a signed-in person, a form or an admin page needs is left out of both: it keeps its own chunks, loaded
// where it is used. Route modules are entries of their own and stay separate files.
import type { Plugin, Rolldown } from 'vite';

type CodeSplitting = Exclude<NonNullable<Rolldown.OutputOptions['codeSplitting']>, boolean>;

const SHELL = [
  /[\\/]web[\\/]lib[\\/](?!api-client|upload)[^\\/]+\.tsx?$/,
  /[\\/]web[\\/]components[\\/]ui[\\/](app-link|breadcrumbs|price|progress-bar|toaster)\.tsx$/,
  /[\\/]web[\\/]features[\\/]shell[\\/](?!signed-in\.|logout-modal|role-toggle)[^\\/]+\.tsx?$/,
  /[\\/]web[\\/]features[\\/]auth[\\/]safe-target\.ts$/,
  /[\\/]contract[\\/](constants|messages|text|catalog-constants|chat-constants)\.ts$/,
  /[\\/]node_modules[\\/]react[\\/](jsx-runtime\.js|cjs[\\/]react-jsx-runtime\.production\.js)$/,
];

const CATALOG = [
  /[\\/]web[\\/]features[\\/](catalog|favorites)[\\/]/,
  /[\\/]web[\\/]components[\\/]ui[\\/](avatar|beam-avatar)\.tsx$/,
];

const matches = (patterns: RegExp[]) => (id: string) => !id.includes('?') && patterns.some((p) => p.test(id));

const codeSplitting: CodeSplitting = {
  groups: [
    { name: 'shell', test: matches(SHELL), priority: 2 },
    { name: 'catalog', test: matches(CATALOG), priority: 1 },
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
