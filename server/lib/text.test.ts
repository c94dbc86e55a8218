import { describe, expect, it } from 'vitest';
import { moscowDateTime, normaliseStrings, normaliseText } from './text.ts';

describe('normaliseText', () => {
  it('replaces lone surrogates, keeps pairs', () => {
    expect(normaliseText('a\ud800b\udc00c')).toBe('a\ufffdb\ufffdc');
    expect(normaliseText('😀')).toBe('😀');
    expect(normaliseText('\ud83d\ude00\ud83d')).toBe('😀\ufffd');
  });

  it('drops C0 controls but tab, line feed and carriage return', () => {
    expect(normaliseText('a\u0000b\u0001c\u001fd\te\nf\rg\u000bh\u000ci')).toBe('abcd\te\nf\rghi');
  });

  it('composes to NFC', () => {
    expect(normaliseText('е\u0308лка и\u0306')).toBe('ёлка й');
  });

  it('is linear: a megabyte of controls and surrogates takes milliseconds', () => {
    const text = '\u0000\ud800a'.repeat(350_000);
    const started = performance.now();
    expect(normaliseText(text)).toBe('\ufffda'.repeat(350_000));
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('normaliseStrings', () => {
  it('walks objects and arrays, values and keys', () => {
    const body = { 'к\u0000люч': ['x\ud800', { deep: 'y\u0000' }, 1, true, null], n: 5 };
    expect(normaliseStrings(body)).toEqual({ ключ: ['x\ufffd', { deep: 'y' }, 1, true, null], n: 5 });
  });

  it('normalises a bare string and leaves Buffers and other objects alone', () => {
    expect(normaliseStrings('a\u0000')).toBe('a');
    const buffer = Buffer.from('a\u0000');
    expect(normaliseStrings(buffer)).toBe(buffer);
    expect(buffer.toString()).toBe('a\u0000');
    expect(normaliseStrings(undefined)).toBeUndefined();
  });

  it('handles the query parser’s objects, whose prototype has no prototype', () => {
    const Empty = function () {} as unknown as { new (): Record<string, unknown>; prototype: object };
    Empty.prototype = Object.create(null) as object;
    const query = new Empty();
    query.q = 'a\u0000';
    expect(normaliseStrings(query).q).toBe('a');
  });

  it('never lets a key turn into a prototype', () => {
    const body = JSON.parse('{"__proto__\\u0000": {"polluted": true}}') as Record<string, unknown>;
    const clean = normaliseStrings(body);
    expect(Object.getPrototypeOf(clean)).toBe(Object.prototype);
    expect(Object.keys(clean)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('survives a deeply nested body without overflowing the stack', () => {
    const depth = 200_000;
    const deep = JSON.parse(`${'['.repeat(depth)}"a\\u0000"${']'.repeat(depth)}`) as unknown;
    let node = normaliseStrings(deep);
    for (let i = 0; i < depth; i++) node = (node as unknown[])[0];
    expect(node).toBe('a');
  });
});

describe('moscowDateTime', () => {
  it('says whose time a server-written moment is: Moscow, «МСК» (ADR 046)', () => {
    expect(moscowDateTime(new Date('2026-11-25T11:30:00Z'))).toBe('25 ноября 2026 г. в 14:30 МСК');
    // Past midnight in Moscow while still the day before in UTC.
    expect(moscowDateTime(new Date('2026-11-25T21:05:00Z'))).toBe('26 ноября 2026 г. в 00:05 МСК');
  });
});
