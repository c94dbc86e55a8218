import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database.ts';
import { categories } from '../../modules/lookups/schema.ts';
import { settings } from '../../platform/schema.ts';
import { categories as refCategories } from '../reference/categories.ts';
import { REFERENCE_VERSION_KEY, referenceVersion, seedReference } from './reference.ts';

// Reference lists are seeded once per version of them: a restart skips the upserts (ADR 018).
describe('seedReference', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase({ reference: false });
  });
  afterAll(() => database.drop());

  const firstCategory = async () =>
    (await database.db.select({ title: categories.title }).from(categories).where(eq(categories.slug, refCategories[0]!.slug)))[0]?.title;

  it('seeds a new database and stores the version of the lists', async () => {
    expect(await seedReference(database.db)).toBe(true);
    expect(await firstCategory()).toBe(refCategories[0]!.title);
    const [row] = await database.db.select().from(settings).where(eq(settings.key, REFERENCE_VERSION_KEY));
    expect(row?.value).toBe(referenceVersion());
  });

  it('skips the upserts on the next start, and seeds again when the version changed', async () => {
    await database.db.update(categories).set({ title: 'Изменено вручную' }).where(eq(categories.slug, refCategories[0]!.slug));
    expect(await seedReference(database.db)).toBe(false);
    expect(await firstCategory()).toBe('Изменено вручную');
    expect(await seedReference(database.db, 'another-version')).toBe(true);
    expect(await firstCategory()).toBe(refCategories[0]!.title);
    expect(await seedReference(database.db, 'another-version')).toBe(false);
  });

  it('has a version that follows the content of the lists', () => {
    expect(referenceVersion()).toBe(referenceVersion());
    expect(referenceVersion([[{ code: 'RU', title: 'Россия' }]])).not.toBe(referenceVersion([[{ code: 'RU', title: 'Россия!' }]]));
  });
});
