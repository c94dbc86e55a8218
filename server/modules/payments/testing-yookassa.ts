import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type Person } from '../../test/app.ts';
import { call } from '../../test/api.ts';
import { fakeProvidersEnv } from '../../test/payment-fakes.ts';
import { checkLedger } from '../ledger/index.ts';
import { startFakeYookassa, type FakeYookassa } from './providers/yookassa/fake.ts';
import type { YookassaProvider } from './providers/yookassa/provider.ts';

// The app against the local ЮKassa, for the db tests of money inside a safe deal (refunds, ADR 051; payouts out of
// it, ADR 053): the fake's notifications reach the app's webhook, the outbox runs when the test says so, and the
// client's retries are quick.

export function useYookassaApp() {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let fake: FakeYookassa;
  beforeAll(async () => {
    fake = await startFakeYookassa();
    t = await createTestApp({ ...fakeProvidersEnv({ yookassa: fake }), PUBLIC_URL: 'https://podryad.example' }, { dispatch: false });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    fake.webhookUrl = `${base}/api/payments/webhooks/yookassa`;
    Object.assign(yookassa().client.options, { timeoutMs: 400, backoffMs: 10 });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  const yookassa = () => t.app.services.payments.providers.byName('yookassa') as YookassaProvider;
  return {
    get t() {
      return t;
    },
    get fake() {
      return fake;
    },
    db: () => t.database.db,
    yookassa,
    /** A write as the person, with an Idempotency-Key of its own. */
    post: <T = unknown>(who: Person, url: string, body: unknown = {}) => call<T>(t.app, 'POST', url, { token: who.token, body, headers: { 'idempotency-key': randomUUID() } }),
    runJobs: () => t.app.services.platform.dispatcher.runDue(),
    expectLedgerClean: async () => expect((await checkLedger(t.database.db)).problems).toEqual([]),
  };
}
