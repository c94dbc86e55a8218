import { Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { preloadable } from './preloadable.ts';

function Form({ name }: { name: string }) {
  return <form aria-label={name} />;
}

const inSuspense = (node: React.ReactNode) => renderToString(<Suspense fallback={<i>placeholder</i>}>{node}</Suspense>);

describe('preloadable()', () => {
  it('suspends before its code is loaded, and renders at once, without a fallback, after load()', async () => {
    const Part = preloadable(() => Promise.resolve({ default: Form }));
    // renderToString does not wait: a part that suspends leaves its fallback.
    expect(inSuspense(<Part name="заказ" />)).toContain('placeholder');
    await Part.load();
    expect(inSuspense(<Part name="заказ" />)).toBe('<!--$--><form aria-label="заказ"></form><!--/$-->');
  });

  it('fetches its code once, and again after a failure', async () => {
    const factory = vi
      .fn<() => Promise<{ default: typeof Form }>>()
      .mockRejectedValueOnce(new Error('chunk failed'))
      .mockResolvedValue({ default: Form });
    const Part = preloadable(factory);
    await expect(Part.load()).rejects.toThrow('chunk failed');
    await Promise.all([Part.load(), Part.load()]);
    expect(factory).toHaveBeenCalledTimes(2);
    expect(inSuspense(<Part name="x" />)).toContain('<form aria-label="x">');
  });
});
