import { inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import type { UserRow } from '../db/schema/users.ts';
import { settings as settingsTable } from '../db/schema/system.ts';
import { userActor } from './actor.ts';
import { audit } from './audit.ts';
import type { WithTx } from './tx.ts';
import { SETTING_KEYS, settingsSchema, type Settings, type SettingsPatch } from '#contract/settings';

/** How long a read is reused: instances converge on a change within this time. */
const CACHE_MS = 5_000;

/**
 * The operator settings (contract/settings.ts) over the key-value `settings` table: a stored value that no longer
 * fits its range falls back to the default (and is logged), so a bad row can never stop the marketplace.
 */
export class SettingsService {
  private cached: { at: number; value: Promise<Settings> } | null = null;

  constructor(
    private readonly db: Db,
    private readonly withTx: WithTx,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  /**
   * Every setting. Inside a transaction pass its `tx` as `db`: on PGlite (one connection) a read through the pool
   * would wait for that very transaction to end.
   */
  all(db: Db = this.db): Promise<Settings> {
    if (this.cached && Date.now() - this.cached.at < CACHE_MS) return this.cached.value;
    const value = this.read(db);
    this.cached = { at: Date.now(), value };
    value.catch(() => (this.cached = null));
    return value;
  }

  async get<K extends keyof Settings>(key: K, db?: Db): Promise<Settings[K]> {
    return (await this.all(db))[key];
  }

  /**
   * An admin stores the changed values (already validated against settingsPatchSchema): the values and their audit
   * row commit together. Answers the whole set, read afresh.
   */
  async update(admin: UserRow, patch: SettingsPatch): Promise<Settings> {
    const rows = Object.entries(patch).map(([key, value]) => ({ key, value, updatedAt: new Date() }));
    if (rows.length) {
      await this.withTx(userActor(admin), async ({ tx }) => {
        await tx
          .insert(settingsTable)
          .values(rows)
          .onConflictDoUpdate({ target: settingsTable.key, set: { value: sql`excluded.value`, updatedAt: sql`excluded.updated_at` } });
        await audit(tx, { actorId: admin.id, action: 'settings.update', targetType: 'settings', targetId: 'settings', details: patch });
      });
    }
    this.forget();
    return this.all();
  }

  /** Drops the cached read, so that the next one sees the table (a change made outside `update`). */
  forget(): void {
    this.cached = null;
  }

  private async read(db: Db): Promise<Settings> {
    const rows = await db.select().from(settingsTable).where(inArray(settingsTable.key, SETTING_KEYS));
    const stored: Record<string, unknown> = {};
    for (const row of rows) {
      const field = settingsSchema.shape[row.key as keyof Settings];
      if (field.safeParse(row.value).success) stored[row.key] = row.value;
      else this.log.warn({ key: row.key, value: row.value }, 'stored setting out of range: using its default');
    }
    return settingsSchema.parse(stored);
  }
}
