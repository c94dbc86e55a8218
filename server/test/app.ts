import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { loadEnv, type Env } from '../env.ts';
import { buildApp } from '../app.ts';
import { createTestDatabase } from './database.ts';
import type { Database } from '../db/client.ts';
import type { Clock } from '../platform/clock.ts';
import type { Db } from '../db/client.ts';
import { createUser, type UserOverrides } from '../db/factories.ts';
import type { UserRow } from '../modules/users/schema.ts';

export const TEST_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export function testEnv(overrides: Record<string, string> = {}): Env {
  return loadEnv({ NODE_ENV: 'test', JWT_SECRET: TEST_SECRET, RATES_URL: '', DATA_DIR: '/tmp/podryad-test', ...overrides });
}

/**
 * The API in-process on a database of its own (no web build, no listening socket). The outbox dispatcher runs as
 * in a server, so letters and events arrive a few milliseconds after the commit; `dispatch: false` leaves it
 * stopped (tests that must see no write but their own, or call `platform.dispatcher.runDue()` themselves).
 */
export async function createTestApp(
  envOverrides: Record<string, string> = {},
  { dispatch = true, clock }: { dispatch?: boolean; clock?: Clock } = {},
): Promise<{
  app: FastifyInstance;
  database: Database & { drop(): Promise<void> };
  close(): Promise<void>;
}> {
  const database = await createTestDatabase();
  // TEST_LOG=error shows what a test's 500 was (the server's own log line, with the error and its cause).
  const app = await buildApp({ env: testEnv(envOverrides), database, logger: pino({ level: process.env.TEST_LOG ?? 'silent' }), web: false, clock });
  await app.ready();
  if (dispatch) await app.services.platform.dispatcher.start();
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

/** A person of a test: their row and a token to call the API as them. */
export interface Person {
  user: UserRow;
  token: string;
}

/** A user made by the factory, signed in. */
export async function signedInPerson(app: FastifyInstance, db: Db, overrides: UserOverrides = {}): Promise<Person> {
  const user = await createUser(db, overrides);
  return { user, token: await app.services.tokens.sign(user) };
}
