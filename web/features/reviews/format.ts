import type { Review } from '#contract/reviews';

// Reviews' words (ADR 029).

/** What each mark means, under the stars of the form. */
export const RATING_WORDS: Record<number, string> = { 1: 'Плохо', 2: 'Так себе', 3: 'Нормально', 4: 'Хорошо', 5: 'Отлично' };

/** Who wrote it, from the reader's side: "Заказчик" about a seller, "Исполнитель" about a customer. */
export const authorRoleText = (r: Pick<Review, 'author_role'>) => (r.author_role === 'customer' ? 'Заказчик' : 'Исполнитель');

export const personName = (p: { name: string; surname: string; user_name: string }) => `${p.name} ${p.surname}`.trim() || p.user_name;

/** Under the name in one's own "given" list: whom the review is about. */
export const aboutText = (r: Pick<Review, 'author_role'>) => `отзыв о ${r.author_role === 'customer' ? 'исполнителе' : 'заказчике'}`;

/** The heading of the reviewed party's answer. */
export const answerAuthorText = (r: Pick<Review, 'author_role'>) => `Ответ ${r.author_role === 'customer' ? 'исполнителя' : 'заказчика'}`;

/** The form's words for each side: the customer must write a text, the seller may (ADR 029). */
export const reviewFormTexts = (role: Review['author_role']) =>
  role === 'customer'
    ? { target: 'Исполнитель', textLabel: 'Отзыв', placeholder: 'Как прошла работа: качество, сроки, общение', required: true }
    : { target: 'Заказчик', textLabel: 'Отзыв (необязательно)', placeholder: 'Как прошло сотрудничество с заказчиком', required: false };

/** Said once a review is saved: published at once when the other side has written theirs, else hidden until then. */
export const savedReviewText = (published: boolean) =>
  published ? 'Отзыв опубликован' : 'Отзыв сохранён. Он появится, когда отзыв оставит и другая сторона';
