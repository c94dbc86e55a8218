import { and, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { routeRules, type RouteRuleRow } from './schema.ts';
import type { UserRow } from '../users/index.ts';
import { badRequest, notFound } from '../../lib/http.ts';
import { userActor } from '../../platform/actor.ts';
import { audit } from '../../platform/audit.ts';
import { pagesChanged } from '../../platform/page-cache.ts';
import type { WithTx } from '../../platform/tx.ts';
import { decodeCursor, escapeLike, keysetAfter, orderBy, page, timestampKey, type SortKey } from '../../platform/listing/listing.ts';
import { trimEnd } from '#contract/text';
import { MESSAGES } from '#contract/messages';
import { ROUTE_RULE_MESSAGES as M, type AdminRouteRule, type RouteRuleKind } from '#contract/admin';

/**
 * How long the rules read are reused. A change reaches every instance at once through the outbox job below and
 * Redis (ADR 036); this only bounds a lost signal.
 */
const CACHE_MS = 60_000;

/** The outbox job that drops every instance's cached rules once a change committed. */
export const ROUTE_RULES_CHANGED_JOB = 'route-rules-changed';

/**
 * Paths no rule may take: signing in and the admin area (a rule there could lock the admins out of undoing it), and
 * what the server answers before the pages (a rule would never apply).
 */
const RESERVED = /^\/(?:admin|login|api|assets|uploads|catalogue|builds|socket\.io)(?:\/|$)/i;
/** How many redirects the loop check follows. */
const CHAIN_LIMIT = 20;

/** Normalises a request path: no query, no trailing slash (but "/"), at most 2,000 characters. */
export function normalisePath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] ?? '/';
  const trimmed = bare.length > 1 ? trimEnd(bare, '/') : bare;
  return (trimmed || '/').slice(0, 2000);
}

const NEWEST: SortKey[] = [
  { expr: routeRules.createdAt, dir: 'desc', kind: 'timestamptz' },
  { expr: routeRules.id, dir: 'desc', kind: 'uuid' },
];

export type RouteRuleMatch = { redirect: string } | { block: true } | null;
type Rule = { kind: RouteRuleKind; target: string | null };

const present = (r: RouteRuleRow): AdminRouteRule => ({
  _id: r.id,
  path: r.path,
  kind: r.kind,
  target: r.redirect,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

const fieldError = (field: string, message: string) => badRequest(MESSAGES.validation, { [field]: [message] });
const isAbsolute = (target: string) => /^https?:\/\//i.test(target);

/**
 * The redirect's target as stored: a path of this site (not "//host", which browsers read as another site) or an
 * absolute http(s) address.
 */
function checkedTarget(target: string | null | undefined): string {
  if (!target) throw fieldError('target', M.targetNeeded);
  if (/\s/.test(target)) throw fieldError('target', M.badTarget);
  if (isAbsolute(target)) {
    try {
      const url = new URL(target);
      if (!url.hostname || url.username || url.password) throw new Error('no host');
      return target;
    } catch {
      throw fieldError('target', M.badTarget);
    }
  }
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) throw fieldError('target', M.badTarget);
  return target;
}

/** SPEC §2 route rules: every navigation asks whether its path goes elsewhere or is closed (ADR 036). */
export class RouteRuleService {
  private cache: { at: number; rules: Promise<Map<string, Rule>> } | null = null;
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly withTx: WithTx,
  ) {}

  private rules(): Promise<Map<string, Rule>> {
    if (this.cache && Date.now() - this.cache.at < CACHE_MS) return this.cache.rules;
    const generation = this.generation;
    const rules = this.db
      .select()
      .from(routeRules)
      .then((rows) => new Map(rows.map((r) => [r.path, { kind: r.kind, target: r.redirect }])));
    const entry = { at: Date.now(), rules };
    this.cache = entry;
    rules.then(
      () => {
        // Read before a change that landed meanwhile: read again next time.
        if (this.generation !== generation && this.cache === entry) this.cache = null;
      },
      () => {
        if (this.cache === entry) this.cache = null;
      },
    );
    return rules;
  }

  /** Drops the cached rules: the next lookup reads the table (a change here or on another instance). */
  forget(): void {
    this.generation += 1;
    this.cache = null;
  }

  async lookup(path: string): Promise<RouteRuleMatch> {
    const rule = (await this.rules()).get(normalisePath(path));
    if (!rule) return null;
    return rule.kind === 'block' ? { block: true } : { redirect: rule.target! };
  }

  /** GET /api/admin/route-rules: newest first, keyset pages. */
  async list(query: { q?: string; kind?: RouteRuleKind; cursor?: string; limit: number }) {
    const where: SQL[] = [];
    if (query.q) {
      const like = `%${escapeLike(query.q)}%`;
      where.push(or(ilike(routeRules.path, like), ilike(routeRules.redirect, like))!);
    }
    if (query.kind) where.push(eq(routeRules.kind, query.kind));
    if (query.cursor) where.push(keysetAfter(NEWEST, decodeCursor(query.cursor, ['timestamptz', 'uuid'])));
    const rows = await this.db
      .select({ rule: routeRules, at: timestampKey(routeRules.createdAt) })
      .from(routeRules)
      .where(and(...where))
      .orderBy(...orderBy(NEWEST))
      .limit(query.limit + 1);
    const { rows: kept, next } = page(rows, query.limit, (r) => [r.at, r.rule.id]);
    return { rows: kept.map((r) => present(r.rule)), next };
  }

  /** An admin's new rule, or a change of one (`id`): checked against the others, audited, and at once everywhere. */
  async save(admin: UserRow, input: { path: string; kind: RouteRuleKind; target?: string | null }, id?: string): Promise<AdminRouteRule> {
    const path = normalisePath(input.path);
    if (RESERVED.test(path)) throw fieldError('path', M.reserved);
    if (input.kind === 'block' && path === '/') throw fieldError('path', M.blockRoot);
    const target = input.kind === 'redirect' ? checkedTarget(input.target) : null;

    const saved = await this.withTx(userActor(admin), async ({ tx, outbox }) => {
      // One change at a time: two racing rules could otherwise make a loop neither saw.
      await tx.execute(sql`lock table ${routeRules} in share row exclusive mode`);
      const all = await tx.select().from(routeRules);
      const before = id ? all.find((r) => r.id === id) : undefined;
      if (id && !before) throw notFound(M.notFound);
      if (all.some((r) => r.path === path && r.id !== id)) throw fieldError('path', M.pathTaken);

      if (target && !isAbsolute(target)) {
        const rules = new Map(all.filter((r) => r.id !== id).map((r) => [r.path, r]));
        let at = normalisePath(target);
        if (at === path) throw fieldError('target', M.self);
        if (rules.get(at)?.kind === 'block') throw fieldError('target', M.blockedTarget);
        for (let step = 0; step < CHAIN_LIMIT; step++) {
          const next = rules.get(at);
          if (!next || next.kind !== 'redirect' || !next.redirect || isAbsolute(next.redirect)) break;
          const via = at;
          at = normalisePath(next.redirect);
          if (at === path) throw fieldError('target', M.loop(via));
        }
      }

      const now = new Date();
      const [row] = before
        ? await tx.update(routeRules).set({ path, kind: input.kind, redirect: target, updatedAt: now }).where(eq(routeRules.id, before.id)).returning()
        : await tx.insert(routeRules).values({ path, kind: input.kind, redirect: target }).returning();
      await audit(tx, {
        actorId: admin.id,
        action: before ? 'routeRule.update' : 'routeRule.create',
        targetType: 'route_rule',
        targetId: row!.id,
        details: { path, kind: input.kind, target, ...(before ? { previous: { path: before.path, kind: before.kind, target: before.redirect } } : {}) },
      });
      this.announce(outbox);
      return row!;
    });
    this.forget();
    return present(saved);
  }

  /** An admin removes a rule. */
  async remove(admin: UserRow, id: string): Promise<void> {
    await this.withTx(userActor(admin), async ({ tx, outbox }) => {
      const [row] = await tx.delete(routeRules).where(eq(routeRules.id, id)).returning();
      if (!row) throw notFound(M.notFound);
      await audit(tx, {
        actorId: admin.id,
        action: 'routeRule.remove',
        targetType: 'route_rule',
        targetId: id,
        details: { path: row.path, kind: row.kind, target: row.redirect },
      });
      this.announce(outbox);
    });
    this.forget();
  }

  /** Every instance reads the rules afresh, and guests' kept pages go (one may now redirect). */
  private announce(outbox: Parameters<Parameters<WithTx>[1]>[0]['outbox']) {
    outbox.job(ROUTE_RULES_CHANGED_JOB, {}, { dedupeKey: ROUTE_RULES_CHANGED_JOB });
    pagesChanged(outbox);
  }

  // Tests and scripts: rules without an admin (no audit).
  async set(path: string, redirect: string) {
    const p = normalisePath(path);
    await this.db
      .insert(routeRules)
      .values({ path: p, kind: 'redirect', redirect })
      .onConflictDoUpdate({ target: routeRules.path, set: { kind: 'redirect', redirect } });
    this.forget();
  }

  async removePath(path: string) {
    await this.db.delete(routeRules).where(eq(routeRules.path, normalisePath(path)));
    this.forget();
  }
}
