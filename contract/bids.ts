import { z } from 'zod';
import { BID_STATUSES } from './money.ts';
import { formatRubles } from './money-format.ts';
import { MAX_PRICE, MIN_SERVICE_PRICE, PROJECT_STATUSES, publicUserSchema } from './catalog.ts';
export { BID_MESSAGES, BID_STATUS_TITLES, BID_COMMENT_MAX } from './bid-constants.ts';
import { BID_COMMENT_MAX } from './bid-constants.ts';

// Bids on projects (ADR 025, PRODUCT.md "Bids"): the bodies, queries and answers of contract/endpoints/bids.ts.
// The shortest comment and the daily limit are operator settings (bids.minComment, bids.perDay): the schema keeps
// only the absolute bounds, the service checks the settings.

/** How many stages an order in stages has (ADR 065), and the bounds of a stage's words. */
export const STAGES_MIN = 2;
export const STAGES_MAX = 20;
export const STAGE_TITLE_MAX = 120;
export const STAGE_DELIVERABLE_MAX = 1000;

/** One stage of a bid's work (ADR 065): what it hands over, for how much (within an order's price range), how long. */
export const bidStageSchema = z.object({
  title: z.string({ error: 'Назовите этап' }).trim().min(1, 'Назовите этап').max(STAGE_TITLE_MAX, `Название этапа — до ${STAGE_TITLE_MAX} символов`),
  deliverable: z
    .string({ error: 'Опишите, что сдаётся по этапу' })
    .trim()
    .min(1, 'Опишите, что сдаётся по этапу')
    .max(STAGE_DELIVERABLE_MAX, `Результат этапа — до ${STAGE_DELIVERABLE_MAX} символов`),
  amount: z
    .number({ error: 'Укажите сумму этапа' })
    .int('Сумма этапа — целое число копеек')
    .min(MIN_SERVICE_PRICE, `Сумма этапа — от ${formatRubles(MIN_SERVICE_PRICE)}`)
    .max(MAX_PRICE, 'Слишком большая сумма этапа'),
  days: z.number({ error: 'Укажите срок этапа' }).int('Срок этапа — целое число дней').min(1, 'Срок этапа — от 1 дня').max(365, 'Срок этапа — не больше 365 дней'),
});
export type BidStage = z.output<typeof bidStageSchema>;

export const bidStagesSchema = z
  .array(bidStageSchema, { error: 'Этапы — список' })
  .min(STAGES_MIN, `Этапов — от ${STAGES_MIN}`)
  .max(STAGES_MAX, `Этапов — не больше ${STAGES_MAX}`);

export const STAGE_MESSAGES = {
  sumPrice: 'Сумма этапов должна быть равна цене отклика',
  sumDays: 'Сроки этапов в сумме должны быть равны сроку отклика',
} as const;

/** A whole job's price and term, as a bid and a custom offer (contract/offers.ts) name them. */
export const workPriceSchema = z
  .number({ error: 'Укажите цену' })
  .int('Цена — целое число копеек')
  .min(MIN_SERVICE_PRICE, `Цена — от ${formatRubles(MIN_SERVICE_PRICE)}`)
  .max(MAX_PRICE, 'Слишком большая сумма');
export const workDaysSchema = z.number({ error: 'Укажите срок' }).int('Срок — целое число дней').min(1, 'Срок — от 1 дня').max(365, 'Срок — не больше 365 дней');

/** The stages' amounts and terms add up to the whole's (a superRefine of a bid's or an offer's schema). */
export const checkStageTotals =
  (messages: { sumPrice: string; sumDays: string }) =>
  (work: { price: number; days: number; stages?: BidStage[] | null }, ctx: z.RefinementCtx) => {
    if (!work.stages) return;
    if (work.stages.reduce((sum, s) => sum + s.amount, 0) !== work.price) ctx.addIssue({ code: 'custom', path: ['stages'], message: messages.sumPrice });
    if (work.stages.reduce((sum, s) => sum + s.days, 0) !== work.days) ctx.addIssue({ code: 'custom', path: ['stages'], message: messages.sumDays });
  };

export const bidInputSchema = z
  .object({
    price: workPriceSchema,
    days: workDaysSchema,
    comment: z
      .string({ error: 'Расскажите о себе и о том, как выполните задачу' })
      .trim()
      .min(1, 'Расскажите о себе и о том, как выполните задачу')
      .max(BID_COMMENT_MAX, `Комментарий — до ${BID_COMMENT_MAX} символов`),
    /** The work in stages; absent or null for one whole order. */
    stages: bidStagesSchema.nullish(),
  })
  .superRefine(checkStageTotals(STAGE_MESSAGES));
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
  /** The work in stages (ADR 065), or null for one whole order. */
  stages: z.array(bidStageSchema).nullable(),
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
  /** The stages seen, for a bid in stages (absent or null for one whole order). */
  stages: bidStagesSchema.nullish(),
});
export type AcceptBidInput = z.infer<typeof acceptBidInputSchema>;

export const acceptedBidSchema = z.object({ order_id: z.string(), chat_id: z.string() });
