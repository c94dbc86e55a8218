import type { ApiError, Me, Rates } from './api.ts';
import type { EndpointAnswer, EndpointInput } from './endpoint.ts';
import type { Endpoints } from './endpoints.ts';
import type { ReadName } from './routes.ts';

type Readable = ReadName & keyof Endpoints;
/** An in-process read's answer: the status and the body, as HTTP would have sent them. */
export type ReadAnswer<T> = { ok: true; status: 200; body: T } | { ok: false; status: number; body: ApiError };

/** What the server hands to the web app's loaders during server rendering (React Router load context). */
export interface PublicConfig {
  /** The brand's name and the description of a page without its own (operator settings, ADR 036). */
  brand: string;
  description: string;
  /** The operator's minimum price of a service, kopecks (setting services.minPrice): the seller's form checks it. */
  minServicePrice: number;
  /** SPEC's development flag: /test exists only when it is on. */
  dev: boolean;
  apiBase: string;
  siteUrl: string;
  buildId: string;
  /** Cloudflare Turnstile site key; null renders the local stand-in widget (development, demo, tests). */
  turnstileSiteKey: string | null;
  /** Administrators must have a second factor before any admin page (operator setting twoFactor.admins, ADR 054). */
  twoFactorForAdmins: boolean;
}

/** The catalogue tree pages show (menus, filters, addresses). By slug: every answer names categories by slug. */
export interface CatalogueCategory {
  slug: string;
  title: string;
  subs: { slug: string; title: string }[];
}

// A type alias, not an interface: React Router's AppLoadContext has an index signature.
export type SsrContext = {
  config: PublicConfig;
  /** The CSP nonce of this response: every inline script must carry it. */
  nonce: string;
  /** True for a full page load (no earlier page in this tab), false for a client navigation's data request. */
  document: boolean;
  user: Me | null;
  catalogue(): Promise<CatalogueCategory[]>;
  /** The address of the catalogue file: pages load the tree from it, not from their hydration data. */
  catalogueUrl(): Promise<string>;
  rates(): Promise<Rates>;
  /** The operator's rule of a path (ADR 036): a redirect's target, a block, or null. */
  routeRule(path: string): Promise<{ redirect: string } | { block: true } | null>;
  /**
   * A GET endpoint of the contract, run in process as the visitor (same guard, validation, handler and response
   * schema as over HTTP; ADR 015). Never throws for a 4xx.
   */
  read<N extends Readable>(
    name: N,
    input?: EndpointInput<Endpoints[N]>,
  ): Promise<ReadAnswer<EndpointAnswer<Endpoints[N]>>>;
};
