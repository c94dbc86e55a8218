import type { Review } from '#contract/reviews';

// Reviews' words (ADR 029).

/** What each mark means, under the stars of the form. */
export const RATING_WORDS: Record<number, string> = { 1: 'Плохо', 2: 'Так себе', 3: 'Нормально', 4: 'Хорошо', 5: 'Отлично' };

/** Who wrote it, from the reader's side: "Заказчик" about a seller, "Исполнитель" about a customer. */
export const authorRoleText = (r: Pick<Review, 'author_role'>) => (r.author_role === 'customer' ? 'Заказчик' : 'Исполнитель');

export const personName = (p: { name: string; surname: string; user_name: string }) => `${p.name} ${p.surname}`.trim() || p.user_name;
