import { eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import type { UserRow } from '../modules/users/schema.ts';
import { settings as settingsTable } from './schema.ts';
import { userActor } from './actor.ts';
import { audit } from './audit.ts';
import type { WithTx } from './tx.ts';
import { pagesChanged } from './page-cache.ts';
import { SETTING_KEYS, settingsSchema, type Settings, type SettingsPatch } from '#contract/settings';

/**
 * How long a read is reused. A change reaches every instance at once through the outbox job below and Redis
 * (ADR 036); this is only the bound for a signal that got lost (an instance restarting its Redis connection).
 */
export const SETTINGS_CACHE_MS = 60_000;

/** The outbox job that drops every instance's cached settings once the change committed (ADR 036). */
export const SETTINGS_CHANGED_JOB = 'settings-changed';

/**
 * The operator settings (contract/settings.ts) over the key-value `settings` table: a stored value that no longer
 * fits its range falls back to the default (and is logged), so a bad row can never stop the marketplace.
 */
export class SettingsService {
  private cached: { at: number; value: Promise<Settings>; settled: boolean } | null = null;
  /**
   * Reads started so far, and the number of the one `last` holds: a read that started later replaces it, whatever
   * order they settle in. (Dropping a read that a `forget` overtook instead left `last` stale for good when the
   * change's own outbox job forgot during the admin's read.)
   */
  private started = 0;
  private lastRead = 0;
  /** The last value read, for what must stay synchronous (letters' brand); the defaults until the first read. */
  private last: Settings;

  constructor(
    private readonly db: Db,
    private readonly withTx: WithTx,
    private readonly log: Pick<Logger, 'warn'>,
    /** Defaults of this deployment that override the contract's (the brand from BRAND_NAME). */
    private readonly defaults: Partial<Settings> = {},
  ) {
    this.last = settingsSchema.parse({ ...defaults });
  }

  /**
   * Every setting. Inside a transaction a read goes through it (`db`, or else the transaction open in the caller's
   * context): on PGlite (one connection) a read through the pool would wait for that very transaction to end.
   */
  all(db: Db = this.withTx.current() ?? this.db): Promise<Settings> {
    const hit = this.cached;
    if (hit && Date.now() - hit.at < SETTINGS_CACHE_MS) {
      // A read still in flight through the pool is not shared with a transaction: on PGlite it waits for that very
      // transaction, which would then wait for it (a deadlock met when the cache expired under a webhook's payment).
      if (hit.settled || db === this.db) return hit.value;
      return this.read(db);
    }
    const read = ++this.started;
    const value = this.read(db);
    const entry = { at: Date.now(), value, settled: false };
    this.cached = entry;
    value.then(
      (v) => {
        entry.settled = true;
        if (read > this.lastRead) [this.lastRead, this.last] = [read, v];
      },
      () => {
        if (this.cached === entry) this.cached = null;
      },
    );
    return value;
  }

  async get<K extends keyof Settings>(key: K, db?: Db): Promise<Settings[K]> {
    return (await this.all(db))[key];
  }

  /** The settings as last read, without waiting (may be up to one change behind while a read is in flight). */
  latest(): Settings {
    return this.last;
  }

  /**
   * An admin stores the changed values (already validated against settingsPatchSchema): the values, their audit
   * row and the outbox job that tells every instance commit together. Answers the whole set, read afresh.
   */
  async update(admin: UserRow, patch: SettingsPatch): Promise<Settings> {
    const rows = Object.entries(patch).map(([key, value]) => ({ key, value, updatedAt: new Date() }));
    if (rows.length) {
      await this.withTx(userActor(admin), async ({ tx, outbox }) => {
        const before = await tx.select().from(settingsTable).where(inArray(settingsTable.key, rows.map((r) => r.key)));
        await tx
          .insert(settingsTable)
          .values(rows)
          .onConflictDoUpdate({ target: settingsTable.key, set: { value: sql`excluded.value`, updatedAt: sql`excluded.updated_at` } });
        const previous = Object.fromEntries(before.map((r) => [r.key, r.value]));
        await audit(tx, { actorId: admin.id, action: 'settings.update', targetType: 'settings', targetId: 'settings', details: { ...patch, previous } });
        outbox.job(SETTINGS_CHANGED_JOB, {}, { dedupeKey: SETTINGS_CHANGED_JOB });
        // Guests' kept pages show the brand, prices and limits.
        pagesChanged(outbox);
      });
    }
    this.forget();
    return this.all();
  }

  /** Drops the cached read, so that the next one sees the table (a change made here, or on another instance). */
  forget(): void {
    this.cached = null;
  }

  private async read(db: Db): Promise<Settings> {
    const rows = await db.select().from(settingsTable).where(inArray(settingsTable.key, SETTING_KEYS));
    const stored: Record<string, unknown> = { ...this.defaults };
    for (const row of rows) {
      const field = settingsSchema.shape[row.key as keyof Settings];
      if (field.safeParse(row.value).success) stored[row.key] = row.value;
      else this.log.warn({ key: row.key, value: row.value }, 'stored setting out of range: using its default');
    }
    return settingsSchema.parse(stored);
  }
}

// A module's own value kept under a key of the settings table beside the operator's (the rates module's fetched
// rates, under 'rates'): read and written whole, outside the operator's set (SETTING_KEYS) and its validation.

/** The value stored under `key`, or undefined when there is none. */
export async function storedValue(db: Db, key: string): Promise<unknown> {
  const [row] = await db.select({ value: settingsTable.value }).from(settingsTable).where(eq(settingsTable.key, key));
  return row?.value;
}

/** Stores `value` under `key`, replacing what was there. */
export async function storeValue(db: Db, key: string, value: unknown): Promise<void> {
  await db
    .insert(settingsTable)
    .values({ key, value })
    .onConflictDoUpdate({ target: settingsTable.key, set: { value, updatedAt: new Date() } });
}
