import { describe, expect, it } from 'vitest';
import type { Chat, ChatMember, Message } from '#contract/chat';
import { aboutService, CHAT_TABS, conversationHead, messageTarget, pendingFromAddress, tabFromAddress, tabToOpen, tabUnseen } from './conversation.ts';

const params = (q: string) => new URLSearchParams(q);
const member = (id: string, online_status = false): ChatMember => ({
  _id: id,
  active_role: 'seller',
  online_status,
  name: 'Ольга',
  surname: 'Смирнова',
  avatar: '/uploads/o.png',
  user_name: 'olga',
});
const chat = (kind: Chat['kind'], service_id: string | null = null): Chat => ({
  _id: 'c1',
  kind,
  members: [],
  unseen_messages: 0,
  last_message: null,
  service_id,
  last_message_at: '2026-11-24T10:00:00.000Z',
});
const msg = (service_id: string | null) => ({ service_id }) as Message;
const person = { _id: 'p1', name: 'Пётр', surname: '', user_name: 'petr', avatar: null, online_status: true };

describe('the address', () => {
  it.each([
    ['', 'chats'],
    ['tab=orders', 'orders'],
    ['tab=chats', 'chats'],
    ['tab=disputes', 'chats'],
  ] as const)('%s opens the %s tab', (q, tab) => {
    expect(tabFromAddress(params(q))).toBe(tab);
  });

  it.each([
    ['', null],
    ['chat=c1', null],
    ['to=', null],
    ['to=u1', { to: 'u1', service: undefined }],
    ['to=u1&service=s1', { to: 'u1', service: 's1' }],
  ])('%s → deep link %j', (q, pending) => {
    expect(pendingFromAddress(params(q))).toEqual(pending);
  });
});

describe('tabs', () => {
  it('names the two lists in order', () => {
    expect(CHAT_TABS.map((t) => t.label)).toEqual(['Чаты', 'Заказы']);
  });
  it.each([
    [[], 0],
    [[0, 0], 0],
    [[2, 0, 5], 7],
  ])('unseen %j add up to %i', (counts, total) => {
    expect(tabUnseen(counts.map((unseen_messages) => ({ unseen_messages })))).toBe(total);
  });
});

describe('tabToOpen (no tab in the address)', () => {
  const list = (...unseen: number[]) => unseen.map((unseen_messages, i) => ({ _id: `c${i}`, unseen_messages }));
  it.each([
    ['nothing anywhere', list(), list(), 'chats'],
    ['news in the chats only', list(2), list(0), 'chats'],
    ['news in both', list(1), list(3), 'chats'],
    ['news in the orders only', list(0, 0), list(0, 4), 'orders'],
    ['no direct chats, read orders', list(), list(0), 'orders'],
    ['read chats and orders', list(0), list(0), 'chats'],
  ] as const)('%s → %s', (_, chats, orders, tab) => {
    expect(tabToOpen({ chats, orders }, null)).toBe(tab);
  });

  it('opens the tab of the chat the address opens, whatever the news', () => {
    const chats = [{ _id: 'd1', unseen_messages: 5 }];
    const orders = [{ _id: 'o1', unseen_messages: 0 }];
    expect(tabToOpen({ chats, orders }, 'o1')).toBe('orders');
    expect(tabToOpen({ chats: [{ _id: 'd1', unseen_messages: 0 }], orders: [{ _id: 'o1', unseen_messages: 2 }] }, 'd1')).toBe('chats');
    // A chat not in the lists' first pages: the news decide.
    expect(tabToOpen({ chats, orders }, 'elsewhere')).toBe('chats');
  });
});

describe('messageTarget', () => {
  it.each([
    ['c1', null, { chat_id: 'c1' }],
    ['c1', { to: 'u1', service: 's1' }, { chat_id: 'c1' }],
    [null, { to: 'u1' }, { recipient: 'u1' }],
    [null, { to: 'u1', service: 's1' }, { recipient: 'u1', service_id: 's1' }],
    [null, { to: 'u1', service: '' }, { recipient: 'u1' }],
    [null, null, null],
  ])('open %j, pending %j → %j', (activeId, pending, target) => {
    expect(messageTarget(activeId, pending)).toEqual(target);
  });
});

describe('aboutService', () => {
  it('takes the deep link’s service, or none', () => {
    expect(aboutService({ to: 'u1', service: 's1' }, chat('direct', 's0'), [])).toBe('s1');
    expect(aboutService({ to: 'u1' }, chat('direct', 's0'), [])).toBeNull();
  });
  it('takes a direct chat’s newest service', () => {
    expect(aboutService(null, chat('direct', 's0'), [msg(null), msg('s2')])).toBe('s2');
    expect(aboutService(null, chat('direct', 's0'), [msg(null)])).toBe('s0');
  });
  it('shows no service for an order chat or no chat', () => {
    expect(aboutService(null, chat('order', 's0'), [msg('s2')])).toBeNull();
    expect(aboutService(null, undefined, [])).toBeNull();
  });
});

describe('conversationHead', () => {
  it('names the chat’s other member, online as the live statuses say', () => {
    const other = member('o1', false);
    expect(conversationHead({ active: chat('direct'), other, pending: null, online: { o1: true } })).toEqual({
      person: other,
      name: 'Ольга Смирнова',
      online: true,
    });
    expect(conversationHead({ active: chat('direct'), other, pending: null, online: {} }).online).toBe(false);
  });

  it('names the linked person while their chat does not exist yet', () => {
    expect(conversationHead({ active: undefined, other: undefined, pending: { to: 'p1', person }, online: {} })).toEqual({
      person,
      name: 'Пётр',
      online: true,
    });
    expect(conversationHead({ active: undefined, other: undefined, pending: { to: 'p1', person }, online: { p1: false } }).online).toBe(false);
  });

  it.each([
    ['a person still loading', { to: 'p1' }, undefined, ''],
    ['a person not found', { to: 'p1', person: null }, undefined, 'Пользователь не найден'],
    ['a chat without another member', null, chat('dispute'), 'Чат'],
    ['nothing open', null, undefined, ''],
  ])('names %s «%s»', (_case, pending, active, name) => {
    const head = conversationHead({ active, other: undefined, pending, online: {} });
    expect(head.name).toBe(name);
    expect(head.online).toBe(false);
    expect(head.person).toBeUndefined();
  });
});
