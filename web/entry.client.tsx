import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { loadCatalogue } from './lib/catalogue.ts';

// React Router's own entry, but the catalogue tree comes first: the server rendered the page with it, and it is
// not in the hydration data (web/lib/catalogue.ts). Its fetch started with the page's preload.
void loadCatalogue().then(() =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  }),
);
