import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { DisputeDecision } from '#contract/disputes';
import { DISPUTE_REASON_LABELS, DISPUTE_REASONS_BY_SIDE, DISPUTE_STATUS_LABELS, DISPUTE_STATUSES } from '#contract/dispute-constants';
import { splitPrice } from '#contract/money';
import { DecisionSummary, DisputeStatusBadge, SplitAmounts, disputeTitle, personName } from './dispute-parts.tsx';

vi.mock('../../lib/api.ts', () => ({ api: { write: vi.fn() } }));
const { DisputeForm } = await import('./dispute-form.tsx');

const _ = '\u00a0';
const text = (html: string) => html.replace(/<!-- -->/g, '');

describe('the dispute’s small parts', () => {
  it.each(DISPUTE_STATUSES.map((s) => [s, { open: 'warning', resolved: 'success', cancelled: 'muted' }[s]] as const))(
    'a %s dispute’s badge is %s',
    (status, tone) => {
      expect(renderToStaticMarkup(<DisputeStatusBadge status={status} />)).toBe(
        `<span class="badge status-badge status-badge--${tone}">${DISPUTE_STATUS_LABELS[status]}</span>`,
      );
    },
  );

  it('titles a dispute by its order and names people by name or user name', () => {
    expect(disputeTitle({ order: { number: 1042, title: 'Логотип' } as never })).toBe('Заказ №1042 · Логотип');
    expect(personName({ name: 'Анна', surname: 'Иванова', user_name: 'anna' })).toBe('Анна Иванова');
    expect(personName({ name: '', surname: '', user_name: 'anna' })).toBe('anna');
  });

  it('lists a split’s amounts, the commission in the seller’s line only when there is one', () => {
    const withFee = text(renderToStaticMarkup(<SplitAmounts split={splitPrice(150_000, 40, 1_500)} sellerPercent={40} testId="preview" />));
    expect(withFee).toContain('data-testid="preview"');
    expect(withFee).toContain(`<li>Заказчику (60${_}%): 900${_}руб.</li>`);
    expect(withFee).toContain(`<li>Исполнителю (40${_}%): 510${_}руб.<span class="muted"> (600${_}руб. за вычетом комиссии сервиса 90${_}руб.)</span></li>`);
    const noFee = renderToStaticMarkup(<SplitAmounts split={splitPrice(150_000, 40, 0)} sellerPercent={40} />);
    expect(noFee).not.toContain('muted');
    expect(noFee).not.toContain('data-testid');
  });

  it('shows a decision with what each balance received, and the arbiter’s comment when there is one', () => {
    const decision: DisputeDecision = {
      outcome: 'release',
      seller_percent: 100,
      customer_amount: 0,
      seller_amount: 150_000,
      seller_net: 127_500,
      commission: 22_500,
      comment: 'Работа сдана в срок',
      resolved_at: '2026-11-24T10:00:00Z',
    };
    const html = text(renderToStaticMarkup(<DecisionSummary decision={decision} />));
    expect(html).toContain('Решение: Полная оплата исполнителю');
    expect(html).toContain(`Заказчику (0${_}%): 0${_}руб.`);
    expect(html).toContain(`Исполнителю (100${_}%): 1${_}275${_}руб.`);
    expect(html).toContain('Комментарий арбитра: Работа сдана в срок');
    expect(text(renderToStaticMarkup(<DecisionSummary decision={{ ...decision, comment: '' }} />))).not.toContain('Комментарий');
  });
});

describe('DisputeForm', () => {
  const reasonsOf = (role: 'customer' | 'seller') => {
    const html = renderToStaticMarkup(<DisputeForm orderId="o1" role={role} onDone={() => {}} onCancel={() => {}} />);
    return [...html.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => [m[1], m[2]]);
  };

  it.each(['customer', 'seller'] as const)('offers the %s the reasons of their side only, after a blank choice', (role) => {
    expect(reasonsOf(role)).toEqual([['', 'Выберите причину'], ...DISPUTE_REASONS_BY_SIDE[role].map((r) => [r, DISPUTE_REASON_LABELS[r]])]);
  });

  it('never lets the customer say the customer does not accept, nor the seller that the work is late', () => {
    expect(reasonsOf('customer').map(([r]) => r)).not.toContain('not_accepted');
    expect(reasonsOf('seller').map(([r]) => r)).not.toContain('not_delivered');
  });
});
