import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { createStore, useStore, type ReadableStore } from './store.ts';

describe('createStore', () => {
  it('holds a value, replaced or derived by set()', () => {
    const store = createStore(1);
    expect(store.get()).toBe(1);
    store.set(2);
    expect(store.get()).toBe(2);
    store.set((n) => n * 10);
    expect(store.get()).toBe(20);
  });

  it('tells its listeners after each change, and only when the value changed', () => {
    const store = createStore({ n: 1 });
    const listener = vi.fn(() => expect(store.get().n).toBe(2));
    const off = store.subscribe(listener);
    store.set((s) => ({ n: s.n + 1 }));
    expect(listener).toHaveBeenCalledTimes(1);
    store.set((s) => s);
    store.set(store.get());
    expect(listener).toHaveBeenCalledTimes(1);
    off();
    store.set({ n: 3 });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('tells every listener of a change, also when one of them unsubscribes another meanwhile', () => {
    const store = createStore(0);
    const second = vi.fn();
    let offSecond = () => {};
    const first = vi.fn(() => offSecond());
    store.subscribe(first);
    offSecond = store.subscribe(second);
    store.set(1);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
    store.set(2);
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('gives the initial value as the server snapshot, or the one it was given', () => {
    const plain = createStore('RUB');
    plain.set('USD');
    expect(plain.getServerSnapshot()).toBe('RUB');
    const empty: readonly string[] = [];
    const withServer = createStore<readonly string[]>(['a'], { server: empty });
    expect(withServer.get()).toEqual(['a']);
    expect(withServer.getServerSnapshot()).toBe(empty);
  });

  it('computes a lazy first value once, at the first get() or set()', () => {
    const init = vi.fn(() => 5);
    const store = createStore(0, { init });
    expect(init).not.toHaveBeenCalled();
    expect(store.getServerSnapshot()).toBe(0);
    expect(store.get()).toBe(5);
    expect(store.get()).toBe(5);
    expect(init).toHaveBeenCalledTimes(1);

    const other = createStore(0, { init: () => 5 });
    other.set((n) => n + 1);
    expect(other.get()).toBe(6);
  });

  it('starts watching with the first listener and stops after the last one', () => {
    const stop = vi.fn();
    let push: (n: number) => void = () => {};
    const start = vi.fn((self: ReadableStore<number> & { set(n: number): void }) => {
      push = (n) => self.set(n);
      return stop;
    });
    const store = createStore(0, { start });
    const a = vi.fn();
    const offA = store.subscribe(a);
    const offB = store.subscribe(() => {});
    expect(start).toHaveBeenCalledTimes(1);
    push(7);
    expect(store.get()).toBe(7);
    expect(a).toHaveBeenCalledTimes(1);
    offA();
    offA();
    expect(stop).not.toHaveBeenCalled();
    offB();
    expect(stop).toHaveBeenCalledTimes(1);
    store.subscribe(() => {});
    expect(start).toHaveBeenCalledTimes(2);
  });
});

describe('useStore', () => {
  function Show({ store, pick }: { store: ReadableStore<{ n: number; label: string }>; pick?: boolean }) {
    const value = useStore(store);
    const label = useStore(store, (s) => s.label);
    return createElement('p', null, pick ? label : `${value.n} ${value.label}`);
  }

  it('renders the server snapshot on the server, whole or through a selector', () => {
    const store = createStore({ n: 1, label: 'сервер' });
    store.set({ n: 2, label: 'клиент' });
    expect(renderToStaticMarkup(createElement(Show, { store }))).toBe('<p>1 сервер</p>');
    expect(renderToStaticMarkup(createElement(Show, { store, pick: true }))).toBe('<p>сервер</p>');
  });
});
