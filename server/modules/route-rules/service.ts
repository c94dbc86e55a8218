import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { routeRules } from '../../db/schema/system.ts';
import { trimEnd } from '#contract/text';

const CACHE_MS = 30_000;

/** Normalises a request path: no query, no trailing slash (but "/"), at most 2,000 characters. */
export function normalisePath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] ?? '/';
  const trimmed = bare.length > 1 ? trimEnd(bare, '/') : bare;
  return (trimmed || '/').slice(0, 2000);
}

/** SPEC §2 route rules: every navigation asks whether its path should go elsewhere. */
export class RouteRuleService {
  private cache: { at: number; rules: Map<string, string> } | null = null;

  constructor(private readonly db: Db) {}

  private async rules(): Promise<Map<string, string>> {
    if (this.cache && Date.now() - this.cache.at < CACHE_MS) return this.cache.rules;
    const rows = await this.db.select().from(routeRules);
    const rules = new Map(rows.map((r) => [r.path, r.redirect]));
    this.cache = { at: Date.now(), rules };
    return rules;
  }

  async lookup(path: string): Promise<string | null> {
    return (await this.rules()).get(normalisePath(path)) ?? null;
  }

  async set(path: string, redirect: string) {
    const p = normalisePath(path);
    await this.db
      .insert(routeRules)
      .values({ path: p, redirect })
      .onConflictDoUpdate({ target: routeRules.path, set: { redirect } });
    this.cache = null;
  }

  async remove(path: string) {
    await this.db.delete(routeRules).where(eq(routeRules.path, normalisePath(path)));
    this.cache = null;
  }
}
