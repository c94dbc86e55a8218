import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { ORDER_STATUSES } from '#contract/money';
import { ORDER_STATUS_LABELS } from '#contract/order-constants';
import { cardSteps } from './card-steps.ts';
import { STATUS_TONES, statusLabel } from './format.ts';
import { OrderSteps } from './order-card-parts.tsx';
import { OrderStatusBadge } from './status-badge.tsx';

const noop = () => {};

describe('OrderSteps', () => {
  it('renders the payment as a link to the order’s payment page and the rest as buttons, in order', () => {
    const steps = cardSteps({ status: 'awaiting_payment', role: 'customer', actions: ['pay', 'cancel'] });
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <OrderSteps orderId="o1" steps={steps} busy={false} open={noop} answer={noop} />
      </MemoryRouter>,
    );
    expect(html).toMatch(/^<div class="order-card__actions"><a class="btn btn--primary btn--sm" href="\/payments\/o1"[^>]*>Оплатить<\/a>/);
    expect(html).toContain('<button type="button" class="btn btn--danger-text btn--sm">Отменить заказ</button>');
  });

  it('disables the answers to a proposal while a step is being sent, and no other button', () => {
    const steps = cardSteps({ status: 'in_progress', role: 'seller', actions: ['answer_cancel', 'deliver'] });
    const html = renderToStaticMarkup(<OrderSteps orderId="o1" steps={steps} busy open={noop} answer={noop} />);
    expect(html.match(/disabled=""/g)).toHaveLength(2);
    expect(html).toContain('<button type="button" class="btn btn--danger btn--sm" disabled="">Согласиться на отмену</button>');
    expect(html).toContain('<button type="button" class="btn btn--ghost btn--sm" disabled="">Отклонить отмену</button>');
    expect(html).toContain('<button type="button" class="btn btn--primary btn--sm">Сдать работу</button>');
    expect(html).toContain('<button type="button" class="btn btn--danger-text btn--sm">Открыть спор</button>');
  });
});

describe('the order’s status badge', () => {
  it.each(ORDER_STATUSES.map((s) => [s] as const))('%s has its label and tone', (status) => {
    const tone = STATUS_TONES[status];
    expect(statusLabel(status)).toBe(ORDER_STATUS_LABELS[status]);
    expect(renderToStaticMarkup(<OrderStatusBadge status={status} />)).toBe(
      `<span class="badge status-badge${tone ? ` status-badge--${tone}` : ''}">${ORDER_STATUS_LABELS[status]}</span>`,
    );
  });

  it('warns of what waits for someone, marks a dispute as danger and the ends as success or muted', () => {
    expect(STATUS_TONES).toEqual({
      awaiting_payment: 'warning',
      in_progress: '',
      delivered: 'warning',
      completed: 'success',
      cancelled: 'muted',
      disputed: 'danger',
    });
    expect(renderToStaticMarkup(<OrderStatusBadge status="in_progress" />)).toBe('<span class="badge status-badge">В работе</span>');
  });
});
