import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.ts';
import { settings } from '../platform/schema.ts';

// Test support shared by the tests that run the real adapters against their fakes (db, property and e2e tests).

/** The environment that points the app's providers at these fakes (ЮKassa's notifications come from 127.0.0.1). */
/** What the env needs of each fake (providers/yookassa/fake.ts, providers/btcpay/fake.ts). */
interface YookassaShop {
  url: string;
  shopId: string;
  secretKey: string;
  agentId: string;
  agentSecretKey: string;
}
interface BtcpayStore {
  url: string;
  apiKey: string;
  store: { id: string };
  webhookSecret: string;
}

export function fakeProvidersEnv({ yookassa, btcpay }: { yookassa?: YookassaShop; btcpay?: BtcpayStore }): Record<string, string> {
  return {
    ...(yookassa
      ? {
          YOOKASSA_SHOP_ID: yookassa.shopId,
          YOOKASSA_SECRET_KEY: yookassa.secretKey,
          YOOKASSA_API_URL: `${yookassa.url}/v3`,
          YOOKASSA_WEBHOOK_IPS: '127.0.0.1,::1',
          YOOKASSA_PAYOUT_AGENT_ID: yookassa.agentId,
          YOOKASSA_PAYOUT_SECRET_KEY: yookassa.agentSecretKey,
          YOOKASSA_PAYOUT_WIDGET_URL: `${yookassa.url}/payouts-data/3.1.0/widget.js`,
        }
      : {}),
    ...(btcpay ? { BTCPAY_URL: btcpay.url, BTCPAY_API_KEY: btcpay.apiKey, BTCPAY_STORE_ID: btcpay.store.id, BTCPAY_WEBHOOK_SECRET: btcpay.webhookSecret } : {}),
  };
}

/** The crypto rates held, as the rates job would keep them (1 BTC = 9 000 000 ₽, 1 USDT = 90 ₽ unless told). */
export async function holdRates(db: Db, app: FastifyInstance, rates: { USDT: number; BTC: number } = { USDT: 90, BTC: 9_000_000 }) {
  const value = { ...rates, lastUpdated: new Date().toISOString() };
  await db.insert(settings).values({ key: 'rates', value }).onConflictDoUpdate({ target: settings.key, set: { value } });
  (app.services.rates as unknown as { cached: unknown }).cached = null;
}
