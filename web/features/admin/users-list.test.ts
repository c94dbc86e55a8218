import { describe, expect, it } from 'vitest';
import { accessText, adminToggle, pageLink, pagesOf, USERS_PAGE_SIZE, userState, usersQuery } from './users-list.ts';

const params = (q: string) => new URLSearchParams(q);

describe('usersQuery', () => {
  it.each([
    ['', {}, 1],
    ['q=%D0%B0%D0%BD%D0%BD%D0%B0', { q: 'анна' }, 1],
    ['q=&role=seller&state=', { role: 'seller' }, 1],
    ['role=admin&state=blocked&page=3', { role: 'admin', state: 'blocked', page: '3' }, 3],
    ['page=', {}, 1],
  ])('%s → %j, page %i', (q, query, page) => {
    expect(usersQuery(params(q))).toEqual({ query, page });
  });

  it('keeps the last of repeated parameters', () => {
    expect(usersQuery(params('role=seller&role=admin')).query).toEqual({ role: 'admin' });
  });

  it('reads a page that is not a number as NaN: the query still sends it, and the API refuses it', () => {
    expect(Number.isNaN(usersQuery(params('page=abc')).page)).toBe(true);
  });
});

describe('userState', () => {
  it.each([
    [{ blocked: false, email_confirmed: true }, 'Активен', 'badge'],
    [{ blocked: false, email_confirmed: false }, 'Email не подтверждён', 'badge badge--muted'],
    [{ blocked: true, email_confirmed: true }, 'Заблокирован', 'badge badge--danger'],
    // Blocked says more than unconfirmed.
    [{ blocked: true, email_confirmed: false }, 'Заблокирован', 'badge badge--danger'],
  ])('%j → %s', (user, label, className) => {
    expect(userState(user)).toEqual({ label, className });
  });
});

describe('pagesOf', () => {
  it.each([
    [0, 1],
    [1, 1],
    [USERS_PAGE_SIZE, 1],
    [USERS_PAGE_SIZE + 1, 2],
    [USERS_PAGE_SIZE * 5, 5],
    [USERS_PAGE_SIZE * 5 + 1, 6],
  ])('%i people → %i pages', (total, pages) => {
    expect(pagesOf(total)).toBe(pages);
  });
});

describe('pageLink', () => {
  it('keeps the filters and sets the page', () => {
    expect(pageLink(params('q=анна&role=seller'), 2)).toBe('?q=%D0%B0%D0%BD%D0%BD%D0%B0&role=seller&page=2');
  });
  it('replaces the page it had', () => {
    expect(pageLink(params('page=4&state=blocked'), 3)).toBe('?page=3&state=blocked');
  });
  it('is just the page without filters', () => {
    expect(pageLink(params(''), 1)).toBe('?page=1');
  });
  it('does not change the address it was given', () => {
    const p = params('page=1');
    pageLink(p, 9);
    expect(p.get('page')).toBe('1');
  });
});

describe('adminToggle', () => {
  it.each([
    [[], { admin: true, label: 'Сделать администратором', done: 'Назначен администратором' }],
    [['customer', 'seller'], { admin: true, label: 'Сделать администратором', done: 'Назначен администратором' }],
    [['customer', 'admin'], { admin: false, label: 'Снять роль администратора', done: 'Роль администратора снята' }],
    [['admin'], { admin: false, label: 'Снять роль администратора', done: 'Роль администратора снята' }],
  ])('roles %j → %j', (roles, toggle) => {
    expect(adminToggle(roles)).toEqual(toggle);
  });
});

describe('accessText', () => {
  it.each([
    [{ blocked: false, block_reason: null }, 'активен'],
    // A reason left from an earlier block is not shown once unblocked.
    [{ blocked: false, block_reason: 'Спам' }, 'активен'],
    [{ blocked: true, block_reason: 'Спам' }, 'заблокирован: Спам'],
    [{ blocked: true, block_reason: null }, 'заблокирован: без причины'],
    [{ blocked: true, block_reason: '' }, 'заблокирован: '],
  ])('%j → %s', (user, text) => {
    expect(accessText(user)).toBe(text);
  });
});
