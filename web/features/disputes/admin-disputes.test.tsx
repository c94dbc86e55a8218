import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import type { AdminDisputeRow } from '#contract/disputes';
import { ADMIN_DISPUTE_TABS, AdminDisputes } from './admin-disputes.tsx';

const _ = '\u00a0';

/** /admin/disputes under a root route with its loader's data (the prices read the rates). */
function render(props: Parameters<typeof AdminDisputes>[0]) {
  const Stub = createRoutesStub([{ id: 'root', path: '/admin/disputes', Component: () => <AdminDisputes {...props} /> }]);
  const root = { config: {}, user: null, catalogueUrl: '', rates: { USDT: 0, BTC: 0 } };
  return renderToStaticMarkup(<Stub initialEntries={['/admin/disputes']} hydrationData={{ loaderData: { root } }} />).replace(/<!-- -->/g, '');
}

const party = (id: string, name: string) => ({ _id: id, name, surname: '', user_name: `${id}_nick`, avatar: null });
const row = (over: Partial<AdminDisputeRow> = {}): AdminDisputeRow =>
  ({
    _id: 'd1',
    order: { _id: 'o1', number: 1042, title: 'Логотип', price: 450_000, commission_bp: 1_500, status: 'disputed' },
    unseen_messages: 0,
    reason: 'poor_quality',
    status: 'open',
    opened_by: party('c1', 'Анна'),
    respondent: party('s1', ''),
    flagged: false,
    created_at: '2026-11-24T10:00:00Z',
    chat: { _id: 'ch1', unseen_messages: 0 },
    ...over,
  }) as AdminDisputeRow;

describe('AdminDisputes', () => {
  it('lists each dispute with its parties, the money held, the reason and the state', () => {
    const html = render({ disputes: [row()], total: 1, next: null, failed: false });
    expect(html).toContain('data-dispute="d1"');
    expect(html).toContain('Заказ №1042 · Логотип</button>');
    expect(html).toContain('<td data-label="Стороны">Анна → s1_nick</td>');
    expect(html).toContain(`<span class="price">4${_}500${_}руб.</span>`);
    expect(html).toContain('<td data-label="Причина">Результат не соответствует заданию</td>');
    expect(html).toContain('status-badge--warning">На рассмотрении</span>');
    expect(html).not.toContain('dispute-flag');
    expect(html).not.toContain('unseen-badge');
  });

  it('flags a dispute waiting too long and counts the admin’s unseen messages', () => {
    const html = render({ disputes: [row({ flagged: true, unseen_messages: 4 })], total: 1, next: null, failed: false });
    expect(html).toContain('data-testid="dispute-flag">Долго без решения</span>');
    expect(html).toContain('<span class="unseen-badge" title="Непрочитанные сообщения">4</span>');
  });

  it('says when nothing was found, and when the queue failed', () => {
    expect(render({ disputes: [], total: 0, next: null, failed: false })).toContain('Споров не нашлось.');
    expect(render({ disputes: [], total: 0, next: null, failed: true })).toContain('Не удалось загрузить споры.');
  });

  it('opens on the open disputes, with the overdue ones next', () => {
    expect(ADMIN_DISPUTE_TABS.map((t) => t.value)).toEqual(['open', 'flagged', 'resolved', 'cancelled', 'all']);
  });
});
