import { and, sql } from 'drizzle-orm';
import { services } from '../schema.ts';
import { searchTsQuery } from '../../../platform/listing/search.ts';
import { matches } from '../../../platform/listing/listing.ts';
import type { ServiceCatalogDeps } from '../deps.ts';
import { publicService } from '../policy.ts';

/** How long an answer about a text is reused. */
const FINDS_REUSE_MS = 60_000;
/** Answers kept at most; the memory starts afresh past it. */
const FINDS_KEPT = 10_000;

/**
 * Which search texts find at least one public service now (the header's suggestions offer only those, ADR 028).
 * An answer is kept for a minute per text: suggestions are asked at every key press.
 */
export class SearchFinds {
  private readonly answers = new Map<string, { at: number; value: boolean }>();

  constructor(private readonly deps: Pick<ServiceCatalogDeps, 'db' | 'synonyms'>) {}

  async among(texts: readonly string[]): Promise<Set<string>> {
    const { db } = this.deps;
    const groups = (await this.deps.synonyms?.()) ?? [];
    const now = Date.now();
    const answers = await Promise.all(
      texts.map(async (text) => {
        const kept = this.answers.get(text);
        if (kept && now - kept.at < FINDS_REUSE_MS) return kept.value ? text : null;
        const q = await searchTsQuery(text, groups, db);
        const found = q
          ? (await db.select({ one: sql`1` }).from(services).where(and(publicService(), matches(services.search, q))).limit(1)).length > 0
          : false;
        if (this.answers.size >= FINDS_KEPT) this.answers.clear();
        this.answers.set(text, { at: now, value: found });
        return found ? text : null;
      }),
    );
    return new Set(answers.filter((t): t is string => t !== null));
  }
}
