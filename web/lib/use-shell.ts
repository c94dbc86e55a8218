import { useMemo } from 'react';
import { useRouteLoaderData } from 'react-router';
import type { Me, Rates } from '#contract/api';
import type { CatalogueCategory, PublicConfig } from '#contract/ssr';

import { useCatalogue } from './catalogue.ts';

/** What the root loader sends. */
export interface RootData {
  config: PublicConfig;
  user: Me | null;
  /** The address of the catalogue file (web/lib/catalogue.ts). */
  catalogueUrl: string;
  rates: Rates;
}

export interface ShellData extends RootData {
  catalogue: CatalogueCategory[];
}

/** The root loader's data (configuration, the signed-in user, the rates) and the catalogue. */
export function useShell(): ShellData {
  const data = useRouteLoaderData('root') as RootData | undefined;
  const catalogue = useCatalogue();
  const shell = useMemo(() => data && { ...data, catalogue }, [data, catalogue]);
  if (!shell) throw new Error('useShell outside the root route');
  return shell;
}
