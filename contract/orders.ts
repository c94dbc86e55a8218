import { z } from 'zod';
import { ORDER_STATUSES } from './money.ts';
import { messageFileSchema, messageFileUrlSchema } from './chat.ts';
import { MAX_MESSAGE_FILES } from './chat-constants.ts';
import { keysetPageSchema } from './catalog.ts';
import { okSchema } from './api.ts';
import { ORDER_ACTIONS, ORDER_MESSAGES, ORDER_PACKAGES } from './order-constants.ts';

// Orders (ADR 025): the answers and requests of the orders endpoints (contract/endpoints/orders.ts) and the
// Russian messages of the orders module. The zod-free part (actions, messages) is order-constants.ts.

export * from './order-constants.ts';

// ---------------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------------

export const orderPartySchema = z.object({
  _id: z.string(),
  name: z.string(),
  surname: z.string(),
  user_name: z.string(),
  avatar: z.string().nullable(),
});
export type OrderParty = z.infer<typeof orderPartySchema>;

export const orderDeliverySchema = z.object({
  _id: z.string(),
  message: z.string(),
  files: z.array(messageFileSchema),
  created_at: z.string(),
});
export type OrderDelivery = z.infer<typeof orderDeliverySchema>;

/**
 * Where a stage's money is (ADR 065): not funded yet, held in escrow, paid to the seller, returned to the customer,
 * split by a dispute's decision, or never funded and dropped.
 */
export const STAGE_FUNDS = ['unfunded', 'held', 'released', 'refunded', 'split', 'dropped'] as const;
export type StageFunds = (typeof STAGE_FUNDS)[number];

/** What a stage order says of itself (ADR 065): its place in its head's plan and where its money is. */
export const orderStageInfoSchema = z.object({
  head_id: z.string(),
  /** The head's number, for «Заказ №1042 · этап 2». */
  head_number: z.number().int(),
  /** 1..20. */
  number: z.number().int(),
  title: z.string(),
  /** What the stage hands over. */
  deliverable: z.string(),
  funds: z.enum(STAGE_FUNDS),
  /** Kopecks of the stage's price paid to the seller (before the commission) and returned to the customer. */
  released: z.number().int(),
  refunded: z.number().int(),
});
export type OrderStageInfo = z.infer<typeof orderStageInfoSchema>;

export const orderSchema = z.object({
  _id: z.string(),
  /** "Заказ №1042". */
  number: z.number().int(),
  title: z.string(),
  status: z.enum(ORDER_STATUSES),
  customer: orderPartySchema,
  seller: orderPartySchema,
  service_id: z.string().nullable(),
  project_id: z.string().nullable(),
  package: z.enum(ORDER_PACKAGES).nullable(),
  extras: z.array(z.object({ title: z.string(), price: z.number().int(), days: z.number().int() })),
  /** Kopecks, package and extras included. */
  price: z.number().int(),
  days: z.number().int(),
  revisions_left: z.number().int(),
  revisions_total: z.number().int(),
  /** The platform's commission on this order, kopecks (the seller receives price − commission). */
  commission: z.number().int(),
  /**
   * The seller's view of a completed order, kopecks, as the ledger settled it (null otherwise): the price released
   * (all of it, or the seller's part of a dispute's split), the service's commission on it and the seller's net.
   */
  settlement: z.object({ price: z.number().int(), commission: z.number().int(), net: z.number().int() }).nullable(),
  chat_id: z.string().nullable(),
  /** The caller's side of the order; null for an admin who is not a party. */
  role: z.enum(['customer', 'seller']).nullable(),
  /** What the caller may do now (the order card's buttons). */
  actions: z.array(z.enum(ORDER_ACTIONS)),
  /** Until when the customer may cancel without a reason (in progress, after payment). */
  cancel_window_ends_at: z.string().nullable(),
  /** When a delivered order is accepted by itself. */
  auto_accept_at: z.string().nullable(),
  cancel_proposal: z.object({ by: z.string(), at: z.string(), reason: z.string() }).nullable(),
  cancelled_by: z.string().nullable(),
  cancel_reason: z.string().nullable(),
  paid_at: z.string().nullable(),
  deadline_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** On a stage order: its stage (ADR 065); null on a head and on a one-stage order. */
  stage: orderStageInfoSchema.nullable(),
  /** On a head: how many stages the job has (dropped ones too); 0 on a one-stage order and on a stage. */
  stage_count: z.number().int(),
});
export type Order = z.infer<typeof orderSchema>;

/** A stage in its head's detail: a whole order of its own, with its deliveries (ADR 065). */
export const orderStageDetailSchema = orderSchema.extend({ deliveries: z.array(orderDeliverySchema) });
export type OrderStageDetail = z.infer<typeof orderStageDetailSchema>;

/**
 * One order with its deliveries, newest first. A head carries its stages in order, each with the caller's actions
 * on it (the card's timeline); a one-stage order and a stage carry null.
 */
export const orderDetailSchema = orderSchema.extend({
  deliveries: z.array(orderDeliverySchema),
  stages: z.array(orderStageDetailSchema).nullable(),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

export const orderListSchema = keysetPageSchema(orderSchema);
export const orderAnswerSchema = okSchema(orderDetailSchema);

// ---------------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------------

const cursor = z.string().max(200).optional();
const limit = z.coerce.number().int().min(1).max(50).default(20);

export const orderIdParamsSchema = z.object({ id: z.uuid(ORDER_MESSAGES.badId) });

export const createOrderSchema = z.object({
  service_id: z.uuid(ORDER_MESSAGES.badService),
  package: z.enum(ORDER_PACKAGES, { error: ORDER_MESSAGES.badPackage }).nullish(),
  extras: z
    .array(z.number().int().min(0).max(19), { error: ORDER_MESSAGES.badExtras })
    .max(20, ORDER_MESSAGES.badExtras)
    .nullish()
    .transform((v) => [...new Set(v ?? [])].sort((a, b) => a - b)),
});
export type CreateOrderInput = z.input<typeof createOrderSchema>;

export const ordersQuerySchema = z.object({
  role: z.enum(['buying', 'selling']).default('buying'),
  status: z.enum(ORDER_STATUSES).optional(),
  cursor,
  limit,
});
export type OrdersQuery = z.input<typeof ordersQuerySchema>;

export const adminOrdersQuerySchema = z.object({
  status: z.enum(ORDER_STATUSES).optional(),
  /** An order's number, or words of its title. */
  q: z.string().trim().max(200).optional(),
  cursor,
  limit,
});
export type AdminOrdersQuery = z.input<typeof adminOrdersQuerySchema>;

const text = (max: number, empty: string) => z.string({ error: empty }).trim().min(1, empty).max(max, ORDER_MESSAGES.tooLong(max));

export const deliverOrderSchema = z.object({
  message: text(5000, ORDER_MESSAGES.deliveryEmpty),
  files: z
    .array(messageFileUrlSchema)
    .max(MAX_MESSAGE_FILES, `Не больше ${MAX_MESSAGE_FILES} файлов`)
    .nullish()
    .transform((v) => v ?? []),
});
export const revisionSchema = z.object({ message: text(5000, ORDER_MESSAGES.revisionEmpty) });
export const cancelOrderSchema = z.object({
  reason: z
    .string()
    .trim()
    .max(1000, ORDER_MESSAGES.tooLong(1000))
    .nullish()
    .transform((v) => v || null),
});
export const cancelProposalSchema = z.object({ reason: text(1000, ORDER_MESSAGES.reasonEmpty) });
export const cancelAnswerSchema = z.object({ accept: z.boolean({ error: ORDER_MESSAGES.answerRequired }) });
