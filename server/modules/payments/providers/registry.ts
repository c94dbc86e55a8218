import type { FastifyPluginAsync } from 'fastify';
import type { PaymentRow } from '../schema.ts';
import type { ReadHandlers } from '../../../platform/endpoints.ts';
import type { PaymentProvider, PayoutProvider } from './provider.ts';
import { SANDBOX, SandboxDesk, sandboxRoutes, type SandboxDeskDeps } from './sandbox/index.ts';
import type { CallOptions, YookassaConfig } from './yookassa/client.ts';
import { YOOKASSA, YookassaProvider } from './yookassa/provider.ts';
import type { YookassaPayoutsConfig } from './yookassa/payouts.ts';
import { payoutWidgetScript } from './yookassa/widget-script.ts';
import { BTCPAY, type ClientOptions } from './btcpay/client.ts';
import { BtcpayProvider, type BtcpayConfig } from './btcpay/provider.ts';

export type { WebhookTransport } from './sandbox/index.ts';

/** The sandbox's stand-in for ЮKassa's payout widget (sandbox/widget.ts): the demo works offline. */
export const SANDBOX_CARD_WIDGET = { script_url: '/api/payments/sandbox-payouts/widget.js', account_id: 'sandbox' } as const;

// Which provider takes a way of paying (ADR 026, 048), chosen by configuration: env PAYMENTS_CARD, PAYMENTS_USDT
// and PAYMENTS_BTC name one (or `none`); unset, a method goes to the real provider configured for it, else to the
// sandbox while it is on (env PAYMENTS_SANDBOX), else nowhere (the method is not offered). A provider is one
// folder beside sandbox/ and one entry in PROVIDERS below; nothing else in payments names one.

/** The ways to pay that go through a provider (the balance pays inside our ledger). */
export type ProviderMethod = Exclude<PaymentRow['method'], 'balance'>;
const METHODS: readonly ProviderMethod[] = ['card', 'usdt', 'btc'];

/** The providers there are, and the methods each can serve. */
export const PROVIDERS = { sandbox: ['card', 'usdt', 'btc'], yookassa: ['card'], btcpay: ['usdt', 'btc'] } as const satisfies Record<string, readonly ProviderMethod[]>;
export type ProviderName = keyof typeof PROVIDERS;

export interface ProviderRegistry {
  /** The provider a method's payments go to, or null when none is configured (the method is unavailable). */
  forMethod(method: ProviderMethod): PaymentProvider | null;
  /** A configured provider by the name its payments and webhooks carry, or null. */
  byName(name: string): PaymentProvider | null;
  /**
   * The provider that sends a method's withdrawals out (a crypto payout; a card or a ЮMoney wallet through ЮKassa),
   * or null: an admin pays it by hand.
   */
  payoutsFor(method: ProviderMethod | 'yoomoney'): PayoutProvider | null;
  /** The card form's widget (ADR 050): ЮKassa's when it pays cards out, the sandbox's while it is on, else null. */
  cardWidget(): { script_url: string; account_id: string } | null;
  /** A configured payout provider by name, or null. */
  payoutsByName(name: string): PayoutProvider | null;
  /** Every configured provider (the sandbox while it is on): reconciliation asks each that can list. */
  all(): PaymentProvider[];
  /** Which provider serves each method («card → yookassa, usdt → none, …»), for the startup log. */
  describe(): string;
  /** The sandbox's pages and webhook job: they answer 404 while it is off. */
  readonly sandbox: SandboxDesk;
  /** The endpoints the providers serve themselves (the sandbox's confirmation page), always mounted. */
  readonly routes: FastifyPluginAsync<{ reads: ReadHandlers }>;
}

export type ProviderRegistryDeps = Omit<SandboxDeskDeps, 'on'> & {
  /** The sandbox provider is on (development, tests, the demo, or a production that chose it: env.ts). */
  sandbox: boolean;
  /** ЮKassa's shop, when configured (env YOOKASSA_*), and its payouts gateway (env YOOKASSA_PAYOUT_*). */
  yookassa?: YookassaConfig & { callOptions?: CallOptions; payouts?: Partial<YookassaPayoutsConfig> };
  /** The BTCPay Server store, when configured (env BTCPAY_*). */
  btcpay?: BtcpayConfig & { callOptions?: ClientOptions };
  /** The operator's choice of provider per method (env PAYMENTS_CARD, …): a provider's name or 'none'. */
  methods?: Partial<Record<ProviderMethod, ProviderName | 'none'>>;
};

export function createProviderRegistry({ sandbox: sandboxOn, yookassa, btcpay, methods = {}, ...deps }: ProviderRegistryDeps): ProviderRegistry {
  const sandbox = new SandboxDesk({ ...deps, on: sandboxOn });
  // A production without the sandbox has only its real providers: the sandbox would confirm payments no one made.
  const available = new Map<ProviderName, PaymentProvider>();
  if (yookassa) available.set(YOOKASSA, new YookassaProvider(yookassa, deps.clock, yookassa.callOptions));
  if (btcpay) available.set(BTCPAY, new BtcpayProvider(btcpay, deps.clock, btcpay.callOptions));
  if (sandboxOn) available.set(SANDBOX, sandbox.provider);
  const choose = (method: ProviderMethod): PaymentProvider | null => {
    const chosen = methods[method];
    if (chosen === 'none') return null;
    if (chosen) {
      const provider = available.get(chosen);
      if (!provider) throw new Error(`PAYMENTS_${method.toUpperCase()}=${chosen}: that provider is not configured`);
      if (!(PROVIDERS[chosen] as readonly string[]).includes(method)) throw new Error(`PAYMENTS_${method.toUpperCase()}=${chosen}: ${chosen} does not take ${method}`);
      return provider;
    }
    // The first configured provider that takes the method; the sandbox comes last.
    for (const [name, provider] of available) if ((PROVIDERS[name] as readonly string[]).includes(method)) return provider;
    return null;
  };
  const byMethod = Object.fromEntries(METHODS.map((m) => [m, choose(m)])) as Record<ProviderMethod, PaymentProvider | null>;
  // A provider no method uses still reads its webhooks: payments made before a change of configuration settle.
  return {
    forMethod: (method) => byMethod[method],
    byName: (name) => available.get(name as ProviderName) ?? null,
    // A ЮMoney wallet is paid by ЮKassa whenever it is configured; a card by the card's provider if it pays out.
    payoutsFor: (method) => asPayouts(method === 'yoomoney' ? (available.get(YOOKASSA) ?? null) : byMethod[method]),
    cardWidget: () => {
      const card = asPayouts(byMethod.card);
      if (card instanceof YookassaProvider) return card.payouts.widget();
      return sandboxOn ? SANDBOX_CARD_WIDGET : null;
    },
    payoutsByName: (name) => asPayouts(available.get(name as ProviderName) ?? null),
    all: () => [...available.values()],
    describe: () => METHODS.map((m) => `${m} → ${byMethod[m]?.name ?? 'none'}`).join(', '),
    sandbox,
    routes: async (app, { reads }) => {
      await app.register(sandboxRoutes, { sandbox, reads });
      // The sandbox's payout widget: a script, not an API endpoint (outside ROUTES); 404 while the sandbox is off.
      const script = payoutWidgetScript(null);
      app.get(SANDBOX_CARD_WIDGET.script_url, { schema: { hide: true } }, async (_request, reply) => {
        if (!sandboxOn) return reply.status(404).send({ status: 404, message: 'Не найдено' });
        return reply.header('content-type', 'application/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(script);
      });
    },
  };
}

const asPayouts = (provider: PaymentProvider | null): PayoutProvider | null =>
  provider && 'createPayout' in provider && 'payoutOutcome' in provider ? (provider as PaymentProvider & PayoutProvider) : null;
