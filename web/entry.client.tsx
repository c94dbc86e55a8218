import { startTransition, StrictMode, useEffect, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { HYDRATED_EVENT, HYDRATING_EVENT } from './lib/boot-names.ts';
import { loadCatalogue } from './lib/catalogue.ts';

/**
 * Tells a guest's boot script (web/lib/boot-on-intent.ts) that the page is the app's: a parent's effect runs after
 * its children's. A wrapper, not a sibling of the router: a second child would change every useId (React derives
 * them from the tree's forks), and the ids would no longer match the server's.
 */
function Hydrated({ children }: { children: ReactNode }) {
  useEffect(() => void dispatchEvent(new Event(HYDRATED_EVENT)), []);
  return children;
}

// React Router 7.18 can leave the promise of a load it interrupted unhandled: when one revalidation interrupts another
// (a decision and the notification it sends, in a row), the first load's rejection with the AbortError of its own
// abort reaches the browser as an uncaught error (a CI run of e2e/money-loop saw it on /admin/disputes). An aborted
// load is no error: it is not reported. Any other unhandled rejection still is.
addEventListener('unhandledrejection', (event) => {
  if (event.reason instanceof DOMException && event.reason.name === 'AbortError') event.preventDefault();
});

// React Router's own entry, but the catalogue tree comes first: the server rendered the page with it, and it is
// not in the hydration data (web/lib/catalogue.ts). Its fetch started with the page's preload.
void loadCatalogue().then(() =>
  startTransition(() => {
    // From here React takes the page's events (hydrating first what they reach): the boot script stops holding them.
    dispatchEvent(new Event(HYDRATING_EVENT));
    hydrateRoot(
      document,
      <StrictMode>
        <Hydrated>
          <HydratedRouter />
        </Hydrated>
      </StrictMode>,
    );
  }),
);
