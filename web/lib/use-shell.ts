import { useRouteLoaderData } from 'react-router';
import type { Me, Rates } from '#contract/api';
import type { CatalogueCategory, PublicConfig } from '#contract/ssr';

export interface ShellData {
  config: PublicConfig;
  user: Me | null;
  catalogue: CatalogueCategory[];
  rates: Rates;
}

/** The root loader's data: configuration, the signed-in user, the catalogue and the rates. */
export function useShell(): ShellData {
  const data = useRouteLoaderData('root') as ShellData | undefined;
  if (!data) throw new Error('useShell outside the root route');
  return data;
}
