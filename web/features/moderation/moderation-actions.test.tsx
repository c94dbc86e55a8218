import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { ModerationActions } from './moderation-actions.tsx';
import type { ItemKind } from '../items/index.ts';

/** The buttons rendered, as "label|classes" in page order. */
function buttons(kind: ItemKind, status: string, opts: { pending?: boolean; compact?: boolean } = {}) {
  const html = renderToStaticMarkup(
    <ModerationActions
      kind={kind}
      item={{ _id: 'i1', title: 'Логотип', status, pending_edit: opts.pending ? {} : undefined }}
      onDone={() => {}}
      compact={opts.compact}
    />,
  );
  return [...html.matchAll(/<button type="button" class="([^"]+)" aria-label="([^"]+)"/g)].map(([, cls, label]) => `${label}|${cls}`);
}

describe('ModerationActions', () => {
  it('offers a service in moderation approval, rejection and hiding, in that order', () => {
    expect(buttons('service', 'moderation')).toEqual([
      'Одобрить «Логотип»|btn btn--success',
      'Отклонить «Логотип»|btn btn--ghost btn--danger-text',
      'Скрыть «Логотип»|btn btn--ghost btn--danger-text',
    ]);
  });

  it('offers the same for a live service with an edit waiting', () => {
    expect(buttons('service', 'active', { pending: true }).map((b) => b.split(' «')[0])).toEqual(['Одобрить', 'Отклонить', 'Скрыть']);
  });

  it.each([
    ['service', 'active', ['Скрыть']],
    ['service', 'rejected', ['Скрыть']],
    ['service', 'hidden', ['Восстановить']],
    ['project', 'active', ['Скрыть']],
    ['project', 'hidden', ['Восстановить']],
    ['project', 'closed', ['Скрыть']],
  ] as const)('a %s that is %s offers %j', (kind, status, labels) => {
    expect(buttons(kind, status).map((b) => b.split(' «')[0])).toEqual(labels);
  });

  it('draws a restore as the primary button', () => {
    expect(buttons('service', 'hidden')).toEqual(['Восстановить «Логотип»|btn btn--primary']);
  });

  it('draws small buttons when compact', () => {
    expect(buttons('service', 'moderation', { compact: true }).every((b) => b.endsWith(' btn--sm'))).toBe(true);
  });

  it('keeps the reason dialog closed until a decision asks for it', () => {
    const html = renderToStaticMarkup(<ModerationActions kind="service" item={{ _id: 'i1', title: 'Т', status: 'moderation' }} onDone={() => {}} />);
    expect(html).not.toMatch(/<dialog[^>]* open/);
  });
});
