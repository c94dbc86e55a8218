/**
 * How a server-rendered page reads the API (ADR 015), the two ways side by side on one process and one database:
 * - inject: a GET through Fastify in process (`app.inject`), the answer serialised to JSON and parsed back;
 * - read:   the endpoint's handler called directly (`createReader`): the same guard, normalisation, validation,
 *           handler and response schema, no HTTP pipeline and no JSON.
 * Run: `node --import tsx bench/ssr-reads.ts` (BENCH_ITERATIONS, default 2000; DATABASE_URL for PostgreSQL).
 */
import Fastify from 'fastify';
import pino from 'pino';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { buildApp } from '../server/app.ts';
import { testEnv } from '../server/test/app.ts';
import { createTestDatabase } from '../server/test/database.ts';
import { createUser } from '../server/db/factories.ts';
import { createService } from '../server/db/catalog-factories.ts';
import { createReader, type ReadHandlers } from '../server/platform/endpoints.ts';
import { servicesRoutes } from '../server/modules/services/index.ts';

process.env.NODE_ENV = 'production';
const iterations = Number(process.env.BENCH_ITERATIONS ?? 2000);
const logger = pino({ level: 'silent' });
const database = await createTestDatabase();
const app = await buildApp({ env: testEnv(), database, logger, web: false });
await app.ready();

// A second registration of the services routes, only to reach their read handlers (the app keeps its own).
const reads: ReadHandlers = new Map();
const twin = Fastify({ logger: false });
twin.setValidatorCompiler(validatorCompiler);
twin.setSerializerCompiler(serializerCompiler);
await twin.register(servicesRoutes, { catalog: app.services.serviceCatalog, suggestions: app.services.searchSuggestions, reads });
await twin.ready();
const read = createReader(reads, logger);

const seller = await createUser(database.db, { role: 'seller' });
const ids = await Promise.all(Array.from({ length: 50 }, async () => (await createService(database.db, seller.id)).id));
const listing = { limit: '24' } as const;

type Way = (i: number) => Promise<unknown>;
const ways: Record<string, { page: Way; listing: Way }> = {
  inject: {
    page: async (i) => (await app.inject({ url: `/api/services/${ids[i % ids.length]}`, remoteAddress: '10.0.0.1' })).json(),
    listing: async () => (await app.inject({ url: '/api/services?limit=24', remoteAddress: '10.0.0.1' })).json(),
  },
  read: {
    page: (i) => read('services.get', { params: { id: ids[i % ids.length] } }, { user: null, ip: '10.0.0.1' }),
    listing: () => read('services.list', { query: listing }, { user: null, ip: '10.0.0.1' }),
  },
};

async function time(run: Way): Promise<{ perSecond: number; meanMs: number }> {
  for (let i = 0; i < 200; i++) await run(i);
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await run(i);
  const ms = performance.now() - start;
  return { perSecond: Math.round((iterations / ms) * 1000), meanMs: ms / iterations };
}

console.log(`| read | way | reads/s | mean ms |\n|---|---|---|---|`);
for (const target of ['page', 'listing'] as const) {
  for (const [name, way] of Object.entries(ways)) {
    const { perSecond, meanMs } = await time(way[target]);
    console.log(`| services.${target === 'page' ? 'get' : 'list'} | ${name} | ${perSecond} | ${meanMs.toFixed(3)} |`);
  }
}
await twin.close();
await app.close();
await database.drop();
