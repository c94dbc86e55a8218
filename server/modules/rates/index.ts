// Crypto rates, fetched on a schedule and kept.
export { RatesService } from './service.ts';
export { ratesRoutes } from './routes.ts';
export { ratesModule, RATES_REFRESH_JOB } from './module.ts';
