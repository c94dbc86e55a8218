import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.ts';
import { createUser } from './factories.ts';
import { createProject, createService } from './catalog-factories.ts';

// Rows the factories make one after another are newer one after another, also on PGlite, whose now() counts whole
// milliseconds: tests that make two and expect "newest first" rely on it.
describe('factories', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  const increasing = (dates: Date[]) => dates.every((d, i) => i === 0 || d.getTime() > dates[i - 1]!.getTime());

  it('date back-to-back users, projects and services in increasing order', async () => {
    const db = database.db;
    const made: Date[] = [];
    const user = await createUser(db);
    made.push(user.createdAt);
    for (let i = 0; i < 8; i++) {
      made.push((await createProject(db, user.id)).createdAt);
      made.push((await createService(db, user.id)).createdAt);
      made.push((await createUser(db)).createdAt);
    }
    expect(increasing(made), made.map((d) => d.toISOString()).join(' ')).toBe(true);
  });
});
