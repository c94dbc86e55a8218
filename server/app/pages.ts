import type { FastifyInstance } from 'fastify';
import { sessionForToken, tokenOf } from '../lib/auth.ts';
import { createReader, type ReadHandlers } from '../platform/endpoints.ts';
import type { ModuleContext } from '../platform/module.ts';
import { visitorOf } from '../platform/listing/visitors.ts';
import { presentMe } from '../modules/users/index.ts';
import { mountWebApp, readBuildId, type GuestPages } from '../web-handler.ts';
import type { SsrContext } from '#contract/ssr';
import { keptPagePolicy } from './security.ts';

/** The built web app: pages rendered on the server read through the same handlers as the API (`reads`). */
export async function mountPages(app: FastifyInstance, { env, db, log: logger, origin, services }: ModuleContext, reads: ReadHandlers): Promise<void> {
  const { pageCache, settings } = services;
  const buildId = readBuildId();
  const read = createReader(reads, logger);
  const pages: GuestPages = {
    cache: pageCache,
    guest: (request) => tokenOf(request) === null,
    counted: new Set(['services.get']),
    async visit(read, request) {
      const { params } = read.input as { params: { id: string } };
      await services.serviceCatalog.countView(params.id, visitorOf(null, request.ip));
    },
    policy: keptPagePolicy(() => services.payments.providers.cardWidget()),
  };
  await mountWebApp(app, async (request, reported): Promise<SsrContext> => {
    const [signedIn, operator] = await Promise.all([sessionForToken(db, services.tokens, tokenOf(request)), settings.all()]);
    const user = signedIn?.user ?? null;
    return {
      config: {
        brand: operator['brand.name'],
        description: operator['brand.description'],
        minServicePrice: operator['services.minPrice'],
        dev: env.PUBLIC_DEV,
        apiBase: '',
        siteUrl: origin.of(request),
        buildId,
        turnstileSiteKey: env.TURNSTILE_SITE_KEY ?? null,
        twoFactorForAdmins: operator['twoFactor.admins'],
      },
      user: user ? presentMe(user) : null,
      nonce: request.cspNonce,
      document: !request.url.split('?', 1)[0]!.endsWith('.data'),
      catalogue: () => services.lookups.catalogue(),
      catalogueUrl: async () => (await services.lookups.catalogueFile()).path,
      rates: () => services.rates.get(),
      routeRule: (path) => services.routeRules.lookup(path),
      // The visitor's address, not the loopback's: views and searches count visitors by it.
      read: ((name, input) => {
        reported?.(name, input ?? {});
        return read(name, input ?? {}, { user, ip: request.ip, sessionId: signedIn?.sessionId ?? null });
      }) as SsrContext['read'],
    };
  }, pages, env.RENDER_THREADS);
}
