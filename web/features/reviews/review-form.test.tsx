import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { ReviewForm } from './review-form.tsx';

describe('ReviewForm', () => {
  it('names the person in the nominative, never declined («Оценка исполнителю Светлана Орлова», ADR 046)', () => {
    const html = renderToStaticMarkup(
      <ReviewForm orderId="o1" role="customer" targetName="Светлана Орлова" onDone={() => {}} />,
    );
    expect(html).toContain('Исполнитель: Светлана Орлова — ваша оценка');
    expect(html).not.toContain('Оценка исполнителю');
    const seller = renderToStaticMarkup(
      <ReviewForm orderId="o1" role="seller" targetName="Иван Петров" onDone={() => {}} />,
    );
    expect(seller).toContain('Заказчик: Иван Петров — ваша оценка');
  });
});

describe('ReviewForm’s fields', () => {
  const render = (role: 'customer' | 'seller') =>
    renderToStaticMarkup(<ReviewForm orderId="o1" role={role} targetName="Светлана Орлова" onDone={() => {}} />).replace(/<!-- -->/g, '');

  it('requires the customer’s text and leaves the seller’s optional', () => {
    const customer = render('customer');
    expect(customer).toContain('<span class="field__label">Отзыв</span>');
    expect(customer).toMatch(/<textarea[^>]*required=""/);
    expect(customer).toContain('placeholder="Как прошла работа: качество, сроки, общение"');
    const seller = render('seller');
    expect(seller).toContain('<span class="field__label">Отзыв (необязательно)</span>');
    expect(seller).not.toMatch(/<textarea[^>]*required=""/);
    expect(seller).toContain('placeholder="Как прошло сотрудничество с заказчиком"');
  });

  it('offers five marks, each with its word, none chosen', () => {
    const html = render('customer');
    expect(html.match(/type="radio"/g)).toHaveLength(5);
    expect(html).not.toContain('checked=""');
    for (const [n, word] of [
      [1, 'Плохо'],
      [5, 'Отлично'],
    ] as const)
      expect(html).toContain(`${n} — ${word}`);
  });
});
