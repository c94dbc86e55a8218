import type { FastifyPluginAsync } from 'fastify';
import type { PaymentRow } from '../schema.ts';
import type { ReadHandlers } from '../../../platform/endpoints.ts';
import type { PaymentProvider } from './provider.ts';
import { SandboxDesk, sandboxRoutes, type SandboxDeskDeps } from './sandbox/index.ts';

export type { WebhookTransport } from './sandbox/index.ts';

// Which provider takes a way of paying (ADR 026), chosen by configuration. Today every method goes to the built-in
// sandbox while it is on (env PAYMENTS_SANDBOX); a real provider is one more folder beside sandbox/ and one more
// entry here. Nothing else in payments names a provider.

/** The ways to pay that go through a provider (the balance pays inside our ledger). */
export type ProviderMethod = Exclude<PaymentRow['method'], 'balance'>;

export interface ProviderRegistry {
  /** The provider a method's payments go to, or null when none is configured (the method is unavailable). */
  forMethod(method: ProviderMethod): PaymentProvider | null;
  /** A configured provider by the name its payments and webhooks carry, or null. */
  byName(name: string): PaymentProvider | null;
  /** The sandbox's pages and webhook job: they answer 404 while it is off. */
  readonly sandbox: SandboxDesk;
  /** The endpoints the providers serve themselves (the sandbox's confirmation page), always mounted. */
  readonly routes: FastifyPluginAsync<{ reads: ReadHandlers }>;
}

export type ProviderRegistryDeps = Omit<SandboxDeskDeps, 'on'> & {
  /** The sandbox provider is on (development, tests, the demo, or a production that chose it: env.ts). */
  sandbox: boolean;
};

export function createProviderRegistry({ sandbox: sandboxOn, ...deps }: ProviderRegistryDeps): ProviderRegistry {
  const sandbox = new SandboxDesk({ ...deps, on: sandboxOn });
  // A production without the sandbox has no provider yet: the sandbox would confirm payments no one made.
  const fallback = sandboxOn ? sandbox.provider : null;
  const byMethod: Record<ProviderMethod, PaymentProvider | null> = { card: fallback, usdt: fallback, btc: fallback };
  const configured = new Map(Object.values(byMethod).flatMap((p) => (p ? [[p.name, p] as const] : [])));
  return {
    forMethod: (method) => byMethod[method],
    byName: (name) => configured.get(name) ?? null,
    sandbox,
    routes: async (app, { reads }) => {
      await app.register(sandboxRoutes, { sandbox, reads });
    },
  };
}
