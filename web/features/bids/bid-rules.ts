import { BID_COMMENT_MAX, BID_COMMENT_MIN_DEFAULT, BID_MESSAGES } from '#contract/bid-constants';
import { MAX_PRICE, MIN_SERVICE_PRICE } from '#contract/catalog-constants';
import { formatRubles } from '#contract/money-format';
import { rublesToKopecks } from '../../lib/money.ts';
import { charCount } from './format.tsx';

// The seller's bid form's own checks, before the server's: a price in rubles within the limits, a term of days,
// a comment of the length the server asks for by default.

export type BidErrors = Record<string, string[]>;

/** The form's errors by field (none when it may be sent), and the price and days to send. */
export function checkBid(form: { price: string; days: string; comment: string }, min = BID_COMMENT_MIN_DEFAULT) {
  const errors: BidErrors = {};
  const kopecks = rublesToKopecks(form.price);
  if (kopecks === undefined || Number.isNaN(kopecks)) errors.price = ['Укажите цену в рублях'];
  else if (kopecks < MIN_SERVICE_PRICE) errors.price = [`Цена — от ${formatRubles(MIN_SERVICE_PRICE)}`];
  else if (kopecks > MAX_PRICE) errors.price = ['Слишком большая сумма'];
  const days = Number(form.days);
  if (!Number.isInteger(days) || days < 1 || days > 365) errors.days = ['Срок — от 1 до 365 дней'];
  const length = charCount(form.comment);
  if (length < min) errors.comment = [BID_MESSAGES.commentTooShort(min)];
  if (length > BID_COMMENT_MAX) errors.comment = [`Комментарий — до ${BID_COMMENT_MAX} символов`];
  return { errors, body: { price: kopecks as number, days, comment: form.comment.trim() } };
}

/** The comment's counter: how many are still missing, then how many of the most. */
export const commentCounter = (length: number, min = BID_COMMENT_MIN_DEFAULT) =>
  length < min ? { short: true, text: `${length} из ${min} — ещё ${min - length}` } : { short: false, text: `${length} / ${BID_COMMENT_MAX}` };
