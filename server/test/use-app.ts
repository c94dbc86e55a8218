import { afterAll, beforeAll } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.ts';
import type { UserOverrides } from '../db/factories.ts';
import { createTestApp, signedInPerson, type Person } from './app.ts';

/**
 * A test file's API (createTestApp): made before its tests, closed and its database dropped after them. `app` and
 * `db` are read inside tests and hooks, once it is made.
 */
export function useTestApp(...args: Parameters<typeof createTestApp>): { readonly app: FastifyInstance; readonly db: Db; person(overrides?: UserOverrides): Promise<Person> } {
  let made: Awaited<ReturnType<typeof createTestApp>> | undefined;
  beforeAll(async () => {
    made = await createTestApp(...args);
  });
  afterAll(async () => made?.close());
  const current = () => {
    if (!made) throw new Error('useTestApp(): the app is made in beforeAll, read it inside tests');
    return made;
  };
  return {
    get app() {
      return current().app;
    },
    get db() {
      return current().database.db;
    },
    person: (overrides = {}) => signedInPerson(current().app, current().database.db, overrides),
  };
}
