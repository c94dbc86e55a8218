import { z } from 'zod';
import { bidStageSchema, bidStagesSchema, checkStageTotals, workDaysSchema, workPriceSchema } from './bids.ts';
import { okSchema } from './api.ts';

// Custom offers in an order chat (ADR 066): the seller offers the customer a new job, whole or in stages; the
// customer accepts it (a new order) or asks to change it; an edited offer replaces the earlier one.

export const OFFER_STATUSES = ['open', 'change_requested', 'accepted', 'replaced', 'withdrawn'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];
/** The states the customer may still answer: one such offer per order chat (a partial unique index). */
export const LIVE_OFFER_STATUSES = ['open', 'change_requested'] as const satisfies readonly OfferStatus[];

export const OFFER_STATUS_LABELS: Record<OfferStatus, string> = {
  open: 'Ждёт ответа',
  change_requested: 'Просят изменить',
  accepted: 'Принято',
  replaced: 'Заменено',
  withdrawn: 'Отозвано',
};

export const OFFER_MESSAGES = {
  notFound: 'Предложение не найдено',
  notLive: 'Предложение уже принято, заменено или отозвано',
  sellerOnly: 'Предлагать заказ может только исполнитель',
  customerOnly: 'Ответить на предложение может только заказчик',
  sumPrice: 'Сумма этапов должна быть равна цене предложения',
  sumDays: 'Сроки этапов в сумме должны быть равны сроку предложения',
  commentEmpty: 'Напишите, что изменить',
  tooMany: 'Слишком много предложений и просьб подряд. Попробуйте через час',
} as const;

/**
 * Offers made and changes asked per hour, per account (each posts a chat line and may write a letter); an address
 * gets ten times as many (several people behind one NAT).
 */
export const OFFERS_PER_HOUR = 30;
export const OFFERS_ADDRESS_FACTOR = 10;

export const OFFER_TITLE_MAX = 120;
export const OFFER_DESCRIPTION_MAX = 2000;

export const offerInputSchema = z
  .object({
    title: z
      .string({ error: 'Назовите работу' })
      .trim()
      .min(1, 'Назовите работу')
      .max(OFFER_TITLE_MAX, `Название — до ${OFFER_TITLE_MAX} символов`),
    description: z
      .string({ error: 'Опишите работу' })
      .trim()
      .min(1, 'Опишите работу')
      .max(OFFER_DESCRIPTION_MAX, `Описание — до ${OFFER_DESCRIPTION_MAX} символов`),
    price: workPriceSchema,
    days: workDaysSchema,
    /** The work in stages (ADR 065); absent or null for one whole order. */
    stages: bidStagesSchema.nullish(),
  })
  .superRefine(checkStageTotals(OFFER_MESSAGES));
export type OfferInput = z.input<typeof offerInputSchema>;

export const offerChangeSchema = z.object({
  comment: z
    .string({ error: OFFER_MESSAGES.commentEmpty })
    .trim()
    .min(1, OFFER_MESSAGES.commentEmpty)
    .max(1000, 'Не длиннее 1000 символов'),
});

export const offerSchema = z.object({
  _id: z.string(),
  /** The order whose chat the offer was made in. */
  order_id: z.string(),
  title: z.string(),
  description: z.string(),
  price: z.number().int(),
  days: z.number().int(),
  stages: z.array(bidStageSchema).nullable(),
  status: z.enum(OFFER_STATUSES),
  /** The customer's words when they asked for a change. */
  change_comment: z.string().nullable(),
  /** The order the accepted offer opened, and the one to pay first (its stage 1, or itself). */
  new_order_id: z.string().nullable(),
  pay_order_id: z.string().nullable(),
  /** The caller's side. */
  role: z.enum(['customer', 'seller']).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Offer = z.infer<typeof offerSchema>;

export const offerAnswerSchema = okSchema(offerSchema);
export const offerListSchema = okSchema(z.array(offerSchema));
