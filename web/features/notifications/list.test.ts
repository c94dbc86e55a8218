import { describe, expect, it } from 'vitest';
import type { Notification } from '#contract/notifications';
import {
  badgeCount,
  countLine,
  isPlainClick,
  markAllRead,
  markRead,
  unreadAfterOpen,
  unreadText,
  withArrival,
  withPage,
} from './list.ts';

const note = (id: string, read = false): Notification => ({
  _id: id,
  kind: 'order',
  text: `Уведомление ${id}`,
  link: `/profile/orders?o=${id}`,
  read,
  createdAt: '2026-11-24T10:00:00.000Z',
});
const ids = (list: Notification[]) => list.map((n) => n._id);

describe('withArrival', () => {
  it('puts a new notification on top', () => {
    expect(ids(withArrival([note('b'), note('a')], note('c')))).toEqual(['c', 'b', 'a']);
  });
  it('puts the first one into an empty list', () => {
    expect(ids(withArrival([], note('a')))).toEqual(['a']);
  });
  it('returns the very list when the socket repeats one it has', () => {
    const list = [note('b'), note('a')];
    expect(withArrival(list, note('a', true))).toBe(list);
  });
  it('does not change the list it was given', () => {
    const list = [note('a')];
    withArrival(list, note('b'));
    expect(ids(list)).toEqual(['a']);
  });
});

describe('withPage', () => {
  it('adds the next page below', () => {
    expect(ids(withPage([note('d'), note('c')], [note('b'), note('a')]))).toEqual(['d', 'c', 'b', 'a']);
  });
  it('skips those the list has (live arrivals shifted the pages)', () => {
    expect(ids(withPage([note('e'), note('d'), note('c')], [note('c'), note('b')]))).toEqual(['e', 'd', 'c', 'b']);
  });
  it('keeps the list’s copy of a repeated one, read marks included', () => {
    const merged = withPage([note('c', true)], [note('c', false), note('b')]);
    expect(merged.map((n) => [n._id, n.read])).toEqual([
      ['c', true],
      ['b', false],
    ]);
  });
  it.each([
    [[], [], []],
    [['a'], [], ['a']],
    [[], ['a', 'b'], ['a', 'b']],
  ])('%j + %j → %j', (list, page, result) => {
    expect(ids(withPage(list.map((i) => note(i)), page.map((i) => note(i))))).toEqual(result);
  });
});

describe('read marks', () => {
  it('marks one read and leaves the others', () => {
    const list = [note('c'), note('b'), note('a', true)];
    expect(markRead(list, 'b').map((n) => n.read)).toEqual([false, true, true]);
    expect(list[1]!.read).toBe(false);
  });
  it('changes nothing for an id the list does not have', () => {
    expect(markRead([note('a')], 'x').map((n) => n.read)).toEqual([false]);
  });
  it('marks all read', () => {
    expect(markAllRead([note('a'), note('b', true), note('c')]).every((n) => n.read)).toBe(true);
    expect(markAllRead([])).toEqual([]);
  });
  it.each([
    [0, 0],
    [1, 0],
    [2, 1],
    [100, 99],
  ])('opening one with %i unread leaves %i', (unread, after) => {
    expect(unreadAfterOpen(unread)).toBe(after);
  });
});

describe('the counts in words', () => {
  it.each([
    [1, '1\u00a0непрочитанное уведомление'],
    [2, '2\u00a0непрочитанных уведомления'],
    [4, '4\u00a0непрочитанных уведомления'],
    [5, '5\u00a0непрочитанных уведомлений'],
    [11, '11\u00a0непрочитанных уведомлений'],
    [21, '21\u00a0непрочитанное уведомление'],
    [22, '22\u00a0непрочитанных уведомления'],
    [111, '111\u00a0непрочитанных уведомлений'],
  ])('%i → «%s»', (n, text) => {
    expect(unreadText(n)).toBe(text);
    expect(countLine(n)).toBe(text);
  });
  it('says all are read at zero', () => {
    expect(countLine(0)).toBe('Все уведомления прочитаны');
  });
  it.each([
    [1, '1'],
    [99, '99'],
    [100, '99+'],
    [5000, '99+'],
  ])('the bell shows %i as %s', (n, badge) => {
    expect(badgeCount(n)).toBe(badge);
  });
});

describe('isPlainClick', () => {
  const click = { metaKey: false, ctrlKey: false, shiftKey: false, button: 0 };
  it.each([
    [click, true],
    [{ ...click, metaKey: true }, false],
    [{ ...click, ctrlKey: true }, false],
    [{ ...click, shiftKey: true }, false],
    [{ ...click, button: 1 }, false],
    [{ ...click, button: 2 }, false],
  ])('%j → %s', (e, plain) => {
    expect(isPlainClick(e)).toBe(plain);
  });
});
