import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import type { Dispute } from '#contract/disputes';
import { DisputeCard } from './dispute-card.tsx';

const noop = () => {};
const party = (id: string, name: string) => ({ _id: id, name, surname: '', user_name: id, avatar: null });
const dispute = (over: Partial<Dispute> = {}): Dispute =>
  ({
    _id: 'd1',
    order: { _id: 'o1', number: 1042, title: 'Логотип', price: 450_000, commission_bp: 1_500, status: 'disputed' },
    unseen_messages: 0,
    reason: 'not_delivered',
    description: 'Работа не сдана, исполнитель молчит.',
    status: 'open',
    opened_by: party('c1', 'Анна'),
    role: 'opener',
    can_cancel: true,
    decision: null,
    created_at: '2026-11-24T10:00:00Z',
    chat: { _id: 'ch9', unseen_messages: 0 },
    ...over,
  }) as Dispute;
const render = (d: Dispute, open = false) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <DisputeCard dispute={d} me="" open={open} onToggle={noop} onCancel={noop} />
    </MemoryRouter>,
  ).replace(/<!-- -->/g, '');

describe('DisputeCard', () => {
  it('shows the opener’s open dispute with its reason and the way to cancel it', () => {
    const html = render(dispute());
    expect(html).toContain('data-dispute="d1"');
    expect(html).toContain('<p class="dispute-card__title">Заказ №1042 · Логотип</p>');
    expect(html).toContain('Причина: Работа не сдана в срок');
    expect(html).toContain('Вы открыли спор · ');
    expect(html).toContain('Отменить заявку');
    expect(html).toContain('aria-expanded="false"');
    expect(html).toContain('>Переписка');
    expect(html).not.toContain('Обжаловать');
    expect(html).not.toContain('dispute-unseen');
  });

  it('tells the respondent who opened it, with no way to cancel', () => {
    const html = render(dispute({ role: 'respondent', can_cancel: false }));
    expect(html).toContain('Спор открыла другая сторона: Анна · ');
    expect(html).not.toContain('Отменить заявку');
  });

  it.each([
    [3, '3', '3\u00a0непрочитанных'],
    [1, '1', '1\u00a0непрочитанное'],
    [150, '99+', '150\u00a0непрочитанных'],
  ])('counts %s unseen messages as %j, said in full to screen readers', (n, shown, said) => {
    const html = render(dispute({ unseen_messages: n }));
    expect(html).toContain(`<span aria-hidden="true">${shown}</span><span class="visually-hidden">, ${said}</span>`);
  });

  it('offers an appeal against a decision, and hides the chat’s button text once open', () => {
    const html = render(
      dispute({
        status: 'resolved',
        can_cancel: false,
        decision: {
          outcome: 'refund',
          seller_percent: 0,
          customer_amount: 450_000,
          seller_amount: 0,
          seller_net: 0,
          commission: 0,
          comment: '',
          resolved_at: '2026-11-25T10:00:00Z',
        },
      }),
      true,
    );
    expect(html).toContain('Решение: Полный возврат заказчику');
    expect(html).toContain('href="/profile/disputes?tab=appeals&amp;subject=dispute&amp;object=d1"');
    expect(html).toContain('aria-expanded="true"');
    expect(html).toContain('Скрыть переписку');
  });
});
