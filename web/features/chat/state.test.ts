import { describe, expect, it } from 'vitest';
import type { Chat, ChatMember, Message } from '#contract/chat';
import { MESSAGE_PAGE_SIZE } from '#contract/constants';
import {
  type ChatState,
  findChat,
  initialChatState,
  listPage,
  newestUnseen,
  respondentOf,
  tabOf,
  unseenIn,
  withCounters,
  withDeletedChat,
  withListPage,
  withMessageSeen,
  withNewMessage,
  withOlderMessages,
  withOthersSeen,
  withSent,
  withCaughtUp,
  withUserStatus,
} from './state.ts';

const ME = 'me';
const member = (id: string, over: Partial<ChatMember> = {}): ChatMember => ({
  _id: id,
  active_role: 'customer',
  online_status: false,
  name: id,
  surname: '',
  avatar: null,
  user_name: id,
  ...over,
});
const message = (id: string, chat: string, sender = 'bob', seen = false): Message => ({
  _id: id,
  chat_id: chat,
  sender: { _id: sender, name: sender, surname: '', avatar: null },
  message: `text ${id}`,
  files: [],
  seen,
  service_id: null,
  recipient: null,
  masked: false,
  kind: 'text',
  created_at: '2026-11-24T10:00:00.000Z',
});
const chat = (id: string, kind: Chat['kind'] = 'direct', members = [member(ME), member('bob')]): Chat => ({
  _id: id,
  kind,
  members,
  unseen_messages: 0,
  last_message: null,
  service_id: null,
  last_message_at: '2026-11-24T10:00:00.000Z',
});
const state = (over: Partial<ChatState> = {}): ChatState => ({ ...initialChatState, me: ME, ...over });
const ids = (list: { _id: string }[] | undefined) => (list ?? []).map((x) => x._id);
const apply = (s: ChatState, patch: Partial<ChatState>): ChatState => ({ ...s, ...patch });

describe('respondentOf, tabOf, findChat', () => {
  it('finds the member who is not me and not an acting admin', () => {
    const c = chat('c', 'dispute', [member(ME), member('admin', { active_role: 'admin' }), member('bob')]);
    expect(respondentOf(c, ME)?._id).toBe('bob');
    expect(respondentOf(chat('c', 'direct', [member(ME)]), ME)).toBeUndefined();
    // Before the session is known every non-admin member qualifies: the first one is taken.
    expect(respondentOf(c, null)?._id).toBe(ME);
  });
  it.each([
    ['direct', 'chats'],
    ['dispute', 'chats'],
    ['order', 'orders'],
  ] as const)('a %s chat belongs to the %s tab', (kind, tab) => {
    expect(tabOf(chat('c', kind))).toBe(tab);
  });
  it('finds a chat in either tab, and nothing for no id', () => {
    const s = state({ lists: { chats: [chat('a')], orders: [chat('o', 'order')] } });
    expect(findChat(s, 'a')?._id).toBe('a');
    expect(findChat(s, 'o')?._id).toBe('o');
    expect(findChat(s, 'x')).toBeUndefined();
    expect(findChat(s, null)).toBeUndefined();
    expect(findChat(s, '')).toBeUndefined();
  });
});

describe('withNewMessage', () => {
  it('puts a listed chat on top with its last message, without counting it again', () => {
    const s = state({ lists: { chats: [chat('a'), chat('b')], orders: [] }, totals: { chats: 2, orders: 0 } });
    const next = apply(s, withNewMessage(s, { chat: chat('b'), newMessage: message('m1', 'b') }));
    expect(ids(next.lists.chats)).toEqual(['b', 'a']);
    expect(next.lists.chats[0]!.last_message?._id).toBe('m1');
    expect(next.totals).toEqual({ chats: 2, orders: 0 });
  });

  it('adds and counts a chat new to its tab', () => {
    const s = state({ lists: { chats: [chat('a')], orders: [] }, totals: { chats: 1, orders: 3 } });
    const next = apply(s, withNewMessage(s, { chat: chat('o', 'order'), newMessage: message('m1', 'o') }));
    expect(ids(next.lists.orders)).toEqual(['o']);
    expect(next.totals).toEqual({ chats: 1, orders: 4 });
    expect(ids(next.lists.chats)).toEqual(['a']);
  });

  it('shows the message in the open chat once, however often it comes', () => {
    const s = state({ activeId: 'a', messages: [message('m0', 'a')], lists: { chats: [chat('a')], orders: [] } });
    const once = apply(s, withNewMessage(s, { chat: chat('a'), newMessage: message('m1', 'a') }));
    expect(ids(once.messages)).toEqual(['m1', 'm0']);
    const twice = apply(once, withNewMessage(once, { chat: chat('a'), newMessage: message('m1', 'a') }));
    expect(ids(twice.messages)).toEqual(['m1', 'm0']);
  });

  it('leaves the open chat’s messages alone for another chat', () => {
    const s = state({ activeId: 'a', messages: [message('m0', 'a')] });
    expect(withNewMessage(s, { chat: chat('b'), newMessage: message('m1', 'b') }).messages).toBe(s.messages);
  });

  it('takes the members’ online statuses from the chat', () => {
    const s = state({ online: { bob: false, carol: true } });
    const c = chat('a', 'direct', [member(ME, { online_status: true }), member('bob', { online_status: true })]);
    expect(withNewMessage(s, { chat: c, newMessage: message('m', 'a') }).online).toEqual({ bob: true, carol: true, me: true });
  });

  it('changes nothing for a dispute’s chat', () => {
    expect(withNewMessage(state(), { chat: chat('d', 'dispute'), newMessage: message('m', 'd') })).toEqual({});
  });
});

describe('withDeletedChat', () => {
  const s = state({
    lists: { chats: [chat('a'), chat('b')], orders: [chat('o', 'order')] },
    totals: { chats: 5, orders: 1 },
    activeId: 'b',
    messages: [message('m', 'b')],
    page: 2,
    hasMore: true,
  });

  it('removes the chat, uncounts it and closes it when open', () => {
    const next = apply(s, withDeletedChat(s, 'b'));
    expect(ids(next.lists.chats)).toEqual(['a']);
    expect(next.totals).toEqual({ chats: 4, orders: 1 });
    expect(next).toMatchObject({ activeId: null, messages: [], page: 0, hasMore: false });
  });

  it('keeps the open chat when another one goes', () => {
    const next = apply(s, withDeletedChat(s, 'o'));
    expect(ids(next.lists.orders)).toEqual([]);
    expect(next.totals).toEqual({ chats: 5, orders: 0 });
    expect(next.activeId).toBe('b');
    expect(ids(next.messages)).toEqual(['m']);
  });

  it('counts nothing down for a chat not listed', () => {
    expect(withDeletedChat(s, 'zzz').totals).toEqual({ chats: 5, orders: 1 });
  });
});

describe('withUserStatus', () => {
  it('updates the status and the member in every chat of theirs, and no other chat', () => {
    const other = chat('c', 'direct', [member(ME), member('carol')]);
    const s = state({ lists: { chats: [chat('a'), other], orders: [chat('o', 'order')] } });
    const next = apply(s, withUserStatus(s, { id: 'bob', online_status: true }));
    expect(next.online.bob).toBe(true);
    expect(next.lists.chats[0]!.members.find((m) => m._id === 'bob')?.online_status).toBe(true);
    expect(next.lists.orders[0]!.members.find((m) => m._id === 'bob')?.online_status).toBe(true);
    expect(next.lists.chats[1]).toBe(other);
  });
});

describe('withMessageSeen', () => {
  it('marks the message seen in the open chat and as a last message', () => {
    const sent = message('m1', 'a', ME);
    const s = state({ messages: [sent, message('m0', 'a', ME)], lists: { chats: [{ ...chat('a'), last_message: sent }], orders: [] } });
    const next = apply(s, withMessageSeen(s, 'm1'));
    expect(next.messages.map((m) => m.seen)).toEqual([true, false]);
    expect(next.lists.chats[0]!.last_message?.seen).toBe(true);
  });
  it('keeps the very messages when the seen one is not among them', () => {
    const s = state({ messages: [message('m0', 'a', ME)] });
    expect(withMessageSeen(s, 'other').messages).toBe(s.messages);
  });
});

describe('withCounters', () => {
  const s = state({ total: 1, disputes: 0, lists: { chats: [chat('a'), chat('b')], orders: [] } });

  it('takes this person’s totals and the chat’s unseen count', () => {
    const next = apply(s, withCounters(s, { totalUnseen: { me: 7, bob: 99 }, chatTotalUnseen: { me: 3 }, chat_id: 'b', disputesUnseen: { me: 2 } }));
    expect(next.total).toBe(7);
    expect(next.disputes).toBe(2);
    expect(next.lists.chats.map((c) => c.unseen_messages)).toEqual([0, 3]);
  });

  it('leaves a count the payload does not carry for this person', () => {
    expect(withCounters(s, { totalUnseen: { bob: 4 }, chatTotalUnseen: {}, chat_id: 'a' })).toEqual({});
  });

  it('takes a zero', () => {
    expect(withCounters(s, { totalUnseen: { me: 0 }, chatTotalUnseen: { me: 0 }, chat_id: 'a' }).total).toBe(0);
  });

  it('does nothing before the session is known', () => {
    expect(withCounters({ ...s, me: null }, { totalUnseen: { me: 7 }, chatTotalUnseen: {}, chat_id: 'a' })).toEqual({});
  });
});

describe('listPage and withListPage', () => {
  it.each([
    [0, false, 1],
    [40, false, 1],
    [0, true, 1],
    [20, true, 2],
    [25, true, 2],
    [40, true, 3],
  ])('%i loaded, more %s → page %i', (loaded, more, page) => {
    expect(listPage(loaded, more)).toBe(page);
  });

  it('replaces the list with the first page and marks it loaded', () => {
    const s = state({ lists: { chats: [chat('old')], orders: [] }, listError: { chats: true, orders: false } });
    const next = apply(s, withListPage(s, 'chats', { result: [chat('a'), chat('b')], total: 30 }, false));
    expect(ids(next.lists.chats)).toEqual(['a', 'b']);
    expect(next.totals.chats).toBe(30);
    expect(next.loaded.chats).toBe(true);
    expect(next.listError.chats).toBe(false);
  });

  it('adds the chats of a next page not listed yet, counting them when no total came', () => {
    const s = state({ lists: { chats: [chat('a'), chat('b')], orders: [] } });
    const next = apply(s, withListPage(s, 'chats', { result: [chat('b'), chat('c')] }, true));
    expect(ids(next.lists.chats)).toEqual(['a', 'b', 'c']);
    expect(next.totals.chats).toBe(3);
  });

  it('takes the members’ statuses of every listed chat', () => {
    const c = chat('a', 'direct', [member(ME), member('bob', { online_status: true })]);
    expect(withListPage(state(), 'chats', { result: [c] }, false).online).toMatchObject({ bob: true, me: false });
  });
});

describe('withOlderMessages', () => {
  const page = (from: number, n: number) => Array.from({ length: n }, (_, i) => message(`m${from + i}`, 'a'));

  it('adds a full page below and expects more while the total is not reached', () => {
    const s = state({ messages: page(0, 2) });
    const next = apply(s, withOlderMessages(s, 2, { result: page(2, MESSAGE_PAGE_SIZE), total: 100 }));
    expect(next.messages).toHaveLength(2 + MESSAGE_PAGE_SIZE);
    expect(next).toMatchObject({ page: 2, loadingMessages: false, hasMore: true });
  });

  it('expects no more after a short page', () => {
    expect(withOlderMessages(state(), 1, { result: page(0, MESSAGE_PAGE_SIZE - 1) }).hasMore).toBe(false);
  });

  it('expects no more once the total is reached, even after a full page', () => {
    expect(withOlderMessages(state(), 1, { result: page(0, MESSAGE_PAGE_SIZE), total: MESSAGE_PAGE_SIZE }).hasMore).toBe(false);
  });

  it('expects more after a full page when the total is unknown', () => {
    expect(withOlderMessages(state(), 1, { result: page(0, MESSAGE_PAGE_SIZE) }).hasMore).toBe(true);
  });

  it('skips messages already shown (new ones shifted the pages)', () => {
    const s = state({ messages: page(0, 3) });
    expect(ids(withOlderMessages(s, 2, { result: page(2, 3) }).messages)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
  });
});

describe('withSent', () => {
  it('shows the sent message once in its open chat and as its last message', () => {
    const s = state({ activeId: 'a', messages: [message('m0', 'a')], lists: { chats: [chat('a'), chat('b')], orders: [] } });
    const next = apply(s, withSent(s, message('m1', 'a', ME)));
    expect(ids(next.messages)).toEqual(['m1', 'm0']);
    expect(next.lists.chats.map((c) => c.last_message?._id ?? null)).toEqual(['m1', null]);
    expect(ids(apply(next, withSent(next, message('m1', 'a', ME))).messages)).toEqual(['m1', 'm0']);
  });
  it('does not show it in another open chat', () => {
    const s = state({ activeId: 'b', messages: [] });
    expect(withSent(s, message('m1', 'a', ME)).messages).toBe(s.messages);
  });
});

describe('withCaughtUp (after a reconnect, issue 29)', () => {
  const at = (m: Message, minute: number) => ({ ...m, created_at: `2026-11-24T10:${String(minute).padStart(2, '0')}:00.000Z` });
  it('adds the messages sent while the socket was away, newest first, each once', () => {
    const shown = [at(message('m2', 'a'), 2), at(message('m1', 'a'), 1)];
    const s = state({ activeId: 'a', messages: shown });
    const newest = [at(message('m4', 'a'), 4), at(message('m3', 'a'), 3), ...shown];
    expect(ids(apply(s, withCaughtUp(s, 'a', newest)).messages)).toEqual(['m4', 'm3', 'm2', 'm1']);
  });
  it('changes nothing when none was missed, or when another chat is open now', () => {
    const s = state({ activeId: 'a', messages: [message('m1', 'a')] });
    expect(withCaughtUp(s, 'a', [message('m1', 'a')])).toEqual({});
    expect(withCaughtUp(s, 'b', [message('m9', 'b')])).toEqual({});
  });
});

describe('seen marks and counts', () => {
  const s = state({ messages: [message('m3', 'a', 'bob'), message('m2', 'a', ME), message('m1', 'a', 'bob', true), message('m0', 'a', 'bob')] });

  it('finds the newest unseen message from others', () => {
    expect(newestUnseen(s)?._id).toBe('m3');
    expect(newestUnseen(state({ messages: [message('m', 'a', ME)] }))).toBeUndefined();
  });

  it('marks every message from others seen, not this person’s own', () => {
    expect(apply(s, withOthersSeen(s)).messages.map((m) => [m._id, m.seen])).toEqual([
      ['m3', true],
      ['m2', false],
      ['m1', true],
      ['m0', true],
    ]);
  });

  it.each([
    [{ total: 10, disputes: 3 }, 'all', 10],
    [{ total: 10, disputes: 3 }, 'disputes', 3],
    [{ total: 10, disputes: 3 }, 'messages', 7],
    // The two counts come from different events: the difference never goes below zero.
    [{ total: 1, disputes: 3 }, 'messages', 0],
    [{ total: 0, disputes: 0 }, 'messages', 0],
  ] as const)('%j in %s → %i', (counts, scope, n) => {
    expect(unseenIn(counts, scope)).toBe(n);
  });
});
