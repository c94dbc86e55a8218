// Reviews' zod-free vocabulary (ADR 029): the module's Russian messages and limits the pages share.
import { charsAfter } from './plural.ts';

/** Who wrote a review: the customer about the seller, or the seller about the customer. */
export const REVIEW_ROLES = ['customer', 'seller'] as const;
export type ReviewRole = (typeof REVIEW_ROLES)[number];

/** The longest review and answer (characters). The shortest review is the operator setting reviews.minText. */
export const REVIEW_MAX_TEXT = 2000;

export const REVIEW_MESSAGES = {
  notFound: 'Отзыв не найден',
  orderNotFound: 'Заказ не найден',
  badId: 'Неверный идентификатор',
  badRating: 'Поставьте оценку от 1 до 5',
  textEmpty: 'Напишите отзыв',
  textTooShort: (min: number) => `Отзыв — не короче ${charsAfter(min)}`,
  tooLong: (max: number) => `Не длиннее ${charsAfter(max)}`,
  answerEmpty: 'Напишите ответ',
  partiesOnly: 'Оставить отзыв могут только участники заказа',
  notCompleted: 'Отзыв можно оставить только по завершённому и оплаченному заказу',
  windowClosed: 'Срок, в который можно было оставить отзыв по этому заказу, прошёл',
  already: 'Вы уже оставили отзыв по этому заказу',
  recipientOnly: 'Ответить на отзыв может только тот, о ком он написан',
  alreadyAnswered: 'На этот отзыв уже есть ответ',
  adminOnly: 'Удалить отзыв может только администратор',
  removed: 'Отзыв удалён',
} as const;
