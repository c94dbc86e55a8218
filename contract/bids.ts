import { z } from 'zod';
import { BID_STATUSES } from './money.ts';
import { formatRubles } from './money-format.ts';
import { MAX_PRICE, MIN_SERVICE_PRICE, PROJECT_STATUSES, publicUserSchema } from './catalog.ts';
export { BID_MESSAGES, BID_STATUS_TITLES, BID_COMMENT_MAX } from './bid-constants.ts';
import { BID_COMMENT_MAX } from './bid-constants.ts';

// Bids on projects (ADR 025, PRODUCT.md "Bids"): the bodies, queries and answers of contract/endpoints/bids.ts.
// The shortest comment and the daily limit are operator settings (bids.minComment, bids.perDay): the schema keeps
// only the absolute bounds, the service checks the settings.

export const bidInputSchema = z.object({
  price: z
    .number({ error: 'Укажите цену' })
    .int('Цена — целое число копеек')
    .min(MIN_SERVICE_PRICE, `Цена — от ${formatRubles(MIN_SERVICE_PRICE)}`)
    .max(MAX_PRICE, 'Слишком большая сумма'),
  days: z.number({ error: 'Укажите срок' }).int('Срок — целое число дней').min(1, 'Срок — от 1 дня').max(365, 'Срок — не больше 365 дней'),
  comment: z
    .string({ error: 'Расскажите о себе и о том, как выполните задачу' })
    .trim()
    .min(1, 'Расскажите о себе и о том, как выполните задачу')
    .max(BID_COMMENT_MAX, `Комментарий — до ${BID_COMMENT_MAX} символов`),
});
export type BidInput = z.input<typeof bidInputSchema>;

/** The project a bid is on, as the seller's and the admin's lists show it. */
export const bidProjectSchema = z.object({
  _id: z.string(),
  title: z.string(),
  status: z.enum(PROJECT_STATUSES),
  /** The category's slug: the page is /projects/{category}/{_id}. */
  category: z.string(),
  customer_id: z.string(),
});

export const bidSchema = z.object({
  _id: z.string(),
  project_id: z.string(),
  price: z.number().int(),
  days: z.number().int(),
  comment: z.string(),
  status: z.enum(BID_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
  seller: publicUserSchema,
  project: bidProjectSchema,
});
export type Bid = z.infer<typeof bidSchema>;

const cursor = z.string().max(200).optional();
const limit = z.coerce.number().int().min(1).max(60).default(20);

export const projectBidsQuerySchema = z.object({ cursor, limit });
export const myBidsQuerySchema = z.object({ status: z.enum(BID_STATUSES).optional(), cursor, limit });
export const adminBidsQuerySchema = z.object({
  status: z.enum(BID_STATUSES).optional(),
  project: z.uuid('Неверный идентификатор проекта').optional(),
  seller: z.uuid('Неверный идентификатор продавца').optional(),
  cursor,
  limit,
});

export const bidsFlagSchema = z.object({ hasUnread: z.boolean() });
/**
 * The terms the customer saw when accepting: a seller may edit the bid meanwhile, and the order must not take a price
 * or a term nobody agreed to (409 when they differ).
 */
export const acceptBidInputSchema = z.object({
  price: z.number({ error: 'Укажите цену отклика' }).int('Цена — целое число копеек').min(0, 'Цена не может быть отрицательной').max(MAX_PRICE, 'Слишком большая сумма'),
  days: z.number({ error: 'Укажите срок отклика' }).int('Срок — целое число дней').min(1, 'Срок — от 1 дня').max(365, 'Срок — не больше 365 дней'),
});
export type AcceptBidInput = z.infer<typeof acceptBidInputSchema>;

export const acceptedBidSchema = z.object({ order_id: z.string(), chat_id: z.string() });
