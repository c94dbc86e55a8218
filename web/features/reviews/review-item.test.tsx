import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import type { Review } from '#contract/reviews';
import { ReviewItem } from './review-item.tsx';
import { Stars } from './stars.tsx';

const party = (id: string, name: string, surname: string) => ({ _id: id, name, surname, user_name: id, avatar: null });
const review = (over: Partial<Review> = {}): Review => ({
  _id: 'r1',
  rating: 4,
  text: 'Сделано в срок, всё по заданию.',
  author_role: 'customer',
  author: party('c1', 'Анна', 'Иванова'),
  target: party('s1', 'Пётр', 'Сидоров'),
  service: { _id: 'sv1', title: 'Логотип' },
  answer: null,
  published: true,
  publish_at: null,
  can_answer: false,
  created_at: '2026-11-20T10:00:00Z',
  published_at: '2026-11-22T10:00:00Z',
  ...over,
});
const render = (props: Parameters<typeof ReviewItem>[0]) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <ReviewItem {...props} />
    </MemoryRouter>,
  ).replace(/<!-- -->/g, '');

describe('ReviewItem', () => {
  it('shows its author, their side, the publication date, the stars, the text and the service', () => {
    const html = render({ review: review() });
    expect(html).toContain('href="/user/c1"');
    expect(html).toContain('>Анна Иванова</a>');
    expect(html).toContain('Заказчик · <time dateTime="2026-11-22T10:00:00Z">');
    expect(html).toContain('aria-label="Оценка 4 из 5"');
    expect(html).toContain('<p class="review__text">Сделано в срок, всё по заданию.</p>');
    expect(html).toContain('Услуга: Логотип');
  });

  it('in one’s own “given” list shows whom it is about, dated when written while hidden', () => {
    const html = render({ review: review({ published_at: null }), about: true });
    expect(html).toContain('href="/user/s1"');
    expect(html).toContain('отзыв о исполнителе · <time dateTime="2026-11-20T10:00:00Z">');
  });

  it('leaves out an empty text and the service where asked, and shows the answer under its author', () => {
    const html = render({
      review: review({ text: '', author_role: 'seller', answer: { text: 'Спасибо!', created_at: '2026-11-23T10:00:00Z' } }),
      showService: false,
    });
    expect(html).not.toContain('Услуга:');
    expect(html.match(/class="review__text"/g)).toHaveLength(1);
    expect(html).toContain('<p class="review__answer-who">Ответ заказчика</p><p class="review__text">Спасибо!</p>');
  });
});

describe('Stars', () => {
  it.each([0, 1, 3, 5])('fills %s of the five', (rating) => {
    const html = renderToStaticMarkup(<Stars rating={rating} />);
    expect(html.match(/stars__on/g) ?? []).toHaveLength(rating);
    expect(html.match(/stars__off/g) ?? []).toHaveLength(5 - rating);
    expect(html).toContain(`aria-label="Оценка ${rating} из 5"`);
  });
});
