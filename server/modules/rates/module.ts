import { RATES_REFRESH_MS } from '#contract/constants';
import { defineModule } from '../../platform/module.ts';
import { RatesService } from './service.ts';
import { ratesRoutes } from './routes.ts';

declare module '../../platform/module.ts' {
  interface Services {
    rates: RatesService;
  }
}

/** Its recurring job's name: server.ts runs it at once on a start with no rate held. */
export const RATES_REFRESH_JOB = 'rates-refresh';

export const ratesModule = defineModule({
  name: 'rates',
  create: ({ db, env, log, services: { settings } }) => ({
    rates: new RatesService(db, env.RATES_URL, log, async () => {
      const all = await settings.all();
      return { USDT: all['rates.fallbackUSDT'], BTC: all['rates.fallbackBTC'] };
    }),
  }),
  routes: (app, { services: { rates }, reads }) => app.register(ratesRoutes, { rates, reads }),
  // SPEC §7: hourly (and once at startup when no rate is held: server.ts).
  recurring: [{ job: RATES_REFRESH_JOB, everyMs: RATES_REFRESH_MS, run: ({ services: { rates } }) => rates.refresh() }],
});
