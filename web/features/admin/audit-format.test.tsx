import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import type { AdminAuditEntry } from '#contract/admin';
import {
  adminOption,
  auditActionLink,
  auditActor,
  auditDetailValue,
  auditFilters,
  auditHistoryLink,
  auditNextLink,
  auditObjectLink,
  auditObjectText,
  auditQuery,
  auditWhen,
  OBJECT_TYPE_LABELS,
} from './audit-format.ts';
import { AuditTable } from './audit.tsx';

const ID = '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d';
const ADMIN = '9f8e7d6c-5b4a-4321-8fed-cba987654321';

describe('the audited object', () => {
  it.each([
    ['user', `/admin/users/${ID}`, `Пользователь 1a2b3c4d`],
    ['service', `/admin/services/${ID}/edit`, 'Услуга 1a2b3c4d'],
    ['project', `/admin/projects/${ID}/edit`, 'Проект 1a2b3c4d'],
    ['route_rule', '/admin/route-rules', 'Правило адреса 1a2b3c4d'],
    ['settings', '/admin/settings', 'Настройки'],
    ['withdrawal', '/admin/payments?w=', 'Вывод 1a2b3c4d'],
    ['bid', null, 'Отклик 1a2b3c4d'],
    ['review', null, 'Отзыв 1a2b3c4d'],
    ['appeal', null, 'Обращение 1a2b3c4d'],
    ['dispute', null, 'Спор 1a2b3c4d'],
    ['blog_post', null, 'Статья 1a2b3c4d'],
    ['search_query', null, 'Поисковая подсказка 1a2b3c4d'],
    ['brand_new_type', null, 'brand_new_type 1a2b3c4d'],
  ])('%s opens %j and reads «%s»', (target_type, link, text) => {
    expect(auditObjectLink({ target_type, target_id: ID })).toBe(link);
    expect(auditObjectText({ target_type, target_id: ID })).toBe(text);
  });

  it('keeps a short id whole', () => {
    expect(auditObjectText({ target_type: 'search_query', target_id: 'ремонт' })).toBe('Поисковая подсказка ремонт');
  });

  it('labels every type it links', () => {
    for (const type of ['user', 'service', 'project', 'route_rule', 'settings', 'withdrawal']) {
      expect(OBJECT_TYPE_LABELS[type]).toBeTruthy();
      expect(auditObjectLink({ target_type: type, target_id: ID })).toMatch(/^\/admin\//);
    }
  });

  it('filters the log to the object, its parts encoded', () => {
    expect(auditHistoryLink({ target_type: 'user', target_id: ID })).toBe(`?target_type=user&target_id=${ID}`);
    const link = auditHistoryLink({ target_type: 'search_query', target_id: 'a&b c' });
    expect(new URLSearchParams(link.slice(1)).get('target_id')).toBe('a&b c');
  });

  it('filters the log to an action', () => {
    expect(auditActionLink('service.reject-edit')).toBe('?action=service.reject-edit');
    expect(auditActionLink('a b&c')).toBe('?action=a%20b%26c');
  });
});

describe('auditActor', () => {
  it.each([
    [{ actor: ADMIN, actor_name: 'Ольга Админова' }, { text: 'Ольга Админова', link: `/admin/users/${ADMIN}` }],
    [{ actor: ADMIN, actor_name: null }, { text: '9f8e7d6c', link: `/admin/users/${ADMIN}` }],
    [{ actor: null, actor_name: null }, { text: 'Система', link: null }],
    [{ actor: null, actor_name: 'ignored' }, { text: 'Система', link: null }],
  ])('%j → %j', (entry, actor) => {
    expect(auditActor(entry)).toEqual(actor);
  });
});

describe('auditDetailValue', () => {
  it.each([
    ['price', 0, '0\u00a0руб.'],
    ['amount', 1, '0,01\u00a0руб.'],
    ['amount', '150000', '150000'],
    ['method', 'usdt', 'USDT (TRC-20)'],
    ['method', 'balance', 'Баланс'],
    ['method', 'paypal', 'paypal'],
    ['method', 5, '5'],
    ['fields', [], ''],
    ['fields', [1, 'два'], '1, два'],
    ['reason', null, '—'],
    ['reason', undefined, '—'],
    ['reason', 'Спам', 'Спам'],
    ['before', { status: 'draft' }, '{"status":"draft"}'],
    ['flag', false, 'false'],
    ['count', 0, '0'],
  ])('%s %j → %j', (key, value, text) => {
    expect(auditDetailValue(key, value)).toBe(text);
  });
});

describe('auditWhen', () => {
  it('writes the time in Moscow, whatever the reader’s zone', () => {
    expect(auditWhen('2026-11-24T21:30:05.000Z')).toBe('25.11.2026, 00:30:05');
    expect(auditWhen('2026-01-01T00:00:00.000Z')).toBe('01.01.2026, 03:00:00');
  });
});

describe('the log’s filters', () => {
  const params = (q: string) => new URLSearchParams(q);

  it('reads every filter, trimmed, empty when absent', () => {
    expect(auditFilters(params(`actor=${ADMIN}&action=%20service.%20&target_type=user`))).toEqual({
      actor: ADMIN,
      action: 'service.',
      target_type: 'user',
      target_id: '',
    });
    expect(auditFilters(params(''))).toEqual({ actor: '', action: '', target_type: '', target_id: '' });
  });

  it('asks for one page of 50 with only the filters that are set', () => {
    expect(auditQuery(auditFilters(params('')), null)).toEqual({ limit: 50 });
    expect(auditQuery(auditFilters(params(`action=settings.update&target_id=${ID}`)), 'c1')).toEqual({
      limit: 50,
      action: 'settings.update',
      target_id: ID,
      cursor: 'c1',
    });
  });

  it.each([
    [ADMIN, ADMIN],
    [ADMIN.toUpperCase(), ADMIN.toUpperCase()],
    ['не-id', undefined],
    [`${ADMIN}x`, undefined],
    [ADMIN.slice(1), undefined],
  ])('passes the actor %j only when it is an id', (actor, sent) => {
    expect(auditQuery({ actor, action: '', target_type: '', target_id: '' }, null).actor).toBe(sent);
  });

  it('leads to the next page with the same filters, or nowhere', () => {
    const f = auditFilters(params('action=service.&target_type=service'));
    expect(auditNextLink(f, null)).toBeNull();
    expect(auditNextLink(f, '')).toBeNull();
    expect(auditNextLink(f, 'abc=')).toBe('?action=service.&target_type=service&cursor=abc%3D');
    expect(auditNextLink(auditFilters(params('')), 'n')).toBe('?cursor=n');
  });

  it('offers an admin by name, else by email', () => {
    expect(adminOption({ _id: ADMIN, name: 'Ольга', surname: 'Петрова', email: 'o@x.ru' })).toEqual({ value: ADMIN, label: 'Ольга Петрова' });
    expect(adminOption({ _id: ADMIN, name: '', surname: ' ', email: 'o@x.ru' })).toEqual({ value: ADMIN, label: 'o@x.ru' });
  });
});

describe('AuditTable', () => {
  const entry = (over: Partial<AdminAuditEntry> = {}): AdminAuditEntry => ({
    _id: 'e1',
    actor: ADMIN,
    actor_name: 'Ольга',
    action: 'withdrawal.approve',
    details: { amount: 150_000, method: 'card' },
    created_at: '2026-11-24T09:00:00.000Z',
    target_type: 'withdrawal',
    target_id: ID,
    ...over,
  });
  const render = (entries: AdminAuditEntry[]) =>
    renderToStaticMarkup(
      <MemoryRouter>
        <AuditTable entries={entries} />
      </MemoryRouter>,
    );

  it('says when there is nothing', () => {
    expect(render([])).toBe('<p class="empty-state">Записей нет.</p>');
  });

  it('shows a row in words and rubles, with its links', () => {
    const html = render([entry()]);
    expect(html).toContain('12:00:00');
    expect(html).toContain(`href="/admin/users/${ADMIN}"`);
    expect(html).toContain('>Ольга</a>');
    expect(html).toContain('Вывод одобрен');
    expect(html).toContain('href="/admin/payments?w="');
    expect(html).toContain('Вывод 1a2b3c4d');
    expect(html).toContain('<dd>1\u00a0500\u00a0руб.</dd>');
    expect(html).toContain('<dd>Банковская карта</dd>');
  });

  it('shows the system, an object without a page, and no details as a dash', () => {
    const html = render([entry({ actor: null, actor_name: null, target_type: 'review', details: {} })]);
    expect(html).toContain('<td data-label="Кто">Система</td>');
    expect(html).toMatch(/<td data-label="Объект">Отзыв 1a2b3c4d <a/);
    expect(html).toContain('<td data-label="Подробности">—</td>');
  });
});
