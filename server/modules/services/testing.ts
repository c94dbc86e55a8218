import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, expect } from 'vitest';
import { services } from './schema.ts';
import type { UserRow } from '../users/index.ts';
import { createFileRow, type UserOverrides } from '../../db/factories.ts';
import type { Service, ServiceCard } from '#contract/catalog';
import { call } from '../../test/api.ts';
import { useTestApp } from '../../test/use-app.ts';
import type { Person } from '../../test/app.ts';

// Test helpers of the services module, for its API tests (not used by the application).

export type Page<T> = { status: number; result: T[]; total: number; total_exact?: boolean; next: string | null; message?: string; errors?: Record<string, string[]> };

/** What a seller enters for a valid service: a draft's or a submission's body. */
export const serviceInput = (overrides: Record<string, unknown> = {}) => ({
  title: 'Нарисую логотип для вашей компании',
  description: 'Разработаю уникальный логотип: три варианта на выбор, правки до утверждения и исходники в векторе.',
  category: 'design',
  sub: 'logo-design',
  tags: ['Логотип', '  фирменный   стиль '],
  images: [],
  price: 300_000,
  days: 5,
  packages: [
    { kind: 'economy', price: 300_000, days: 5, revisions: 1, description: 'Один вариант логотипа' },
    { kind: 'business', price: 900_000, days: 10, revisions: 5, description: 'Логотип и фирменный стиль' },
  ],
  extras: [{ title: 'Срочно за сутки', price: 100_000, days: 0 }],
  ...overrides,
});

/** A tag (or word) no other test uses. */
export const marker = () => `метка${randomBytes(4).toString('hex')}`;

export const ids = (cards: { _id: string }[]) => cards.map((c) => c._id);

/**
 * A test file's API (useTestApp, its outbox dispatcher stopped), an admin, and the services calls its tests make.
 * `app`, `db` and `admin` are read inside tests and hooks, once they are made.
 */
export function useServicesApi() {
  const api = useTestApp({}, { dispatch: false });
  let admin: Person | undefined;
  beforeAll(async () => {
    admin = await api.person({ role: 'admin' });
  });
  const currentAdmin = () => {
    if (!admin) throw new Error('useServicesApi(): the admin is made in beforeAll, read it inside tests');
    return admin;
  };

  const list = (query: Record<string, string>, token: string | null = null) =>
    call<ServiceCard[]>(api.app, 'GET', '/api/services', { query, token }) as Promise<{ status: number; body: Page<ServiceCard> }>;

  /** Every page of a listing through its cursors. */
  async function walk(query: Record<string, string>, limit: number): Promise<{ ids: string[]; pages: number[]; totals: number[] }> {
    const out = { ids: [] as string[], pages: [] as number[], totals: [] as number[] };
    let cursor: string | null = null;
    do {
      const res = await list({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      out.ids.push(...ids(res.body.result));
      out.pages.push(res.body.result.length);
      out.totals.push(res.body.total);
      cursor = res.body.next;
      if (out.pages.length > 100) throw new Error('the cursor never ends');
    } while (cursor);
    return out;
  }

  return {
    get app() {
      return api.app;
    },
    get db() {
      return api.db;
    },
    get admin() {
      return currentAdmin();
    },
    account: (overrides: UserOverrides = {}) => api.person(overrides),
    seller: (overrides: UserOverrides = {}) => api.person({ role: 'seller', ...overrides }),
    /** A file row of `owner`, as an upload leaves it, and its public url. */
    upload: (owner: UserRow, kind: 'png' | 'pdf' = 'png') => createFileRow(api.db, owner.id, kind),
    list,
    walk,
    detail: (id: string, token: string | null = null) => call<Service>(api.app, 'GET', `/api/services/${id}`, { token }),
    create: (body: unknown, token: string | null) => call<Service>(api.app, 'POST', '/api/services', { body, token }),
    update: (id: string, body: unknown, token: string | null) => call<Service>(api.app, 'PUT', `/api/services/${id}`, { body, token }),
    action: (id: string, name: string, token: string | null) => call<Service>(api.app, 'PATCH', `/api/services/${id}/status`, { body: { action: name }, token }),
    decide: (id: string, body: unknown) => call<Service>(api.app, 'PATCH', `/api/admin/services/${id}`, { body, token: currentAdmin().token }),
    mine: (token: string) => call<Service[]>(api.app, 'GET', '/api/services/my', { token }),
    row: async (id: string) => (await api.db.select().from(services).where(eq(services.id, id)))[0],
  };
}
