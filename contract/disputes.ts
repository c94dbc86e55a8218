import { z } from 'zod';
import { okSchema } from './api.ts';
import { keysetPageSchema } from './catalog.ts';
import { chatSchema, messageFileSchema, messageFileUrlSchema } from './chat.ts';
import { ORDER_STATUSES } from './money.ts';
import { orderPartySchema } from './orders.ts';
import {
  DISPUTE_MAX_DESCRIPTION,
  DISPUTE_MAX_FILES,
  DISPUTE_MESSAGES,
  DISPUTE_MIN_DESCRIPTION,
  DISPUTE_OUTCOMES,
  DISPUTE_REASONS,
  DISPUTE_STATUSES,
} from './dispute-constants.ts';

// Disputes (issue 14, ADR 034): the answers and requests of contract/endpoints/disputes.ts. The zod-free part is
// dispute-constants.ts.

export * from './dispute-constants.ts';

// ---------------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------------

export const disputeOrderSchema = z.object({
  _id: z.string(),
  number: z.number().int(),
  title: z.string(),
  /** Kopecks held in escrow while the dispute is open. */
  price: z.number().int(),
  /** The order's commission rate, basis points (the decision form's preview of the seller's net). */
  commission_bp: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  customer: orderPartySchema,
  seller: orderPartySchema,
  /** The order's own chat (its workspace). */
  chat_id: z.string().nullable(),
});

/** The money of a decision, kopecks: to the customer's balance, to the seller gross, the seller net, the platform. */
export const disputeDecisionSchema = z.object({
  outcome: z.enum(DISPUTE_OUTCOMES),
  /** 0–100: the seller's share of the price. */
  seller_percent: z.number().int(),
  customer_amount: z.number().int(),
  seller_amount: z.number().int(),
  /** What the seller's balance received: seller_amount less the commission. */
  seller_net: z.number().int(),
  commission: z.number().int(),
  comment: z.string(),
  resolved_at: z.string(),
});
export type DisputeDecision = z.infer<typeof disputeDecisionSchema>;

export const disputeBaseSchema = z.object({
  _id: z.string(),
  order: disputeOrderSchema,
  /** SPEC §7: the caller's unseen messages of its chat, on the dispute itself (the same as chat.unseen_messages). */
  unseen_messages: z.number().int(),
  reason: z.enum(DISPUTE_REASONS),
  description: z.string(),
  files: z.array(messageFileSchema),
  status: z.enum(DISPUTE_STATUSES),
  opened_by: orderPartySchema,
  /** The other party of the order (never an admin). */
  respondent: orderPartySchema,
  /** The admin who took the dispute first (the arbiter), if any. */
  admin: orderPartySchema.nullable(),
  /** The caller's side: opener, respondent, or null for an admin. */
  role: z.enum(['opener', 'respondent']).nullable(),
  /** Whether the caller may cancel it now (its opener, while open). */
  can_cancel: z.boolean(),
  /** Open with no decision for disputes.flagDays days. */
  flagged: z.boolean(),
  decision: disputeDecisionSchema.nullable(),
  cancelled_at: z.string().nullable(),
  created_at: z.string(),
});

/** A dispute with its chat as the caller sees it (SPEC: a chat with _id and unseen_messages). */
export const disputeSchema = disputeBaseSchema.extend({ chat: chatSchema });
export type Dispute = z.infer<typeof disputeSchema>;

/** The admin queue's row: the chat's id and the admin's unseen count only. */
export const adminDisputeRowSchema = disputeBaseSchema.extend({ chat: z.object({ _id: z.string(), unseen_messages: z.number().int() }) });
export type AdminDisputeRow = z.infer<typeof adminDisputeRowSchema>;

export const disputeAnswerSchema = okSchema(disputeSchema);
export const myDisputesSchema = okSchema(z.array(disputeSchema)).extend({ total: z.number().int() });
export const adminDisputeListSchema = keysetPageSchema(adminDisputeRowSchema).extend({ total: z.number().int() });

/** new_dispute: a dispute's chat as the addressee sees it (created, taken, cancelled, resolved). */
export const newDisputeEventSchema = z.object({ chat: chatSchema, dispute_id: z.string(), status: z.enum(DISPUTE_STATUSES) });
export type NewDisputeEvent = z.infer<typeof newDisputeEventSchema>;

// ---------------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------------

export const disputeIdParamsSchema = z.object({ id: z.uuid(DISPUTE_MESSAGES.badId) });

export const createDisputeSchema = z.object({
  order_id: z.uuid(DISPUTE_MESSAGES.badOrder),
  reason: z.enum(DISPUTE_REASONS, { error: DISPUTE_MESSAGES.badReason }),
  description: z
    .string({ error: DISPUTE_MESSAGES.descriptionShort })
    .trim()
    .min(DISPUTE_MIN_DESCRIPTION, DISPUTE_MESSAGES.descriptionShort)
    .max(DISPUTE_MAX_DESCRIPTION, DISPUTE_MESSAGES.descriptionLong),
  files: z
    .array(messageFileUrlSchema)
    .max(DISPUTE_MAX_FILES, DISPUTE_MESSAGES.tooManyFiles)
    .nullish()
    .transform((v) => [...new Set(v ?? [])]),
});
export type CreateDisputeInput = z.input<typeof createDisputeSchema>;

export const myDisputesQuerySchema = z.object({
  status: z.enum(DISPUTE_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

export const adminDisputesQuerySchema = z.object({
  status: z.enum(DISPUTE_STATUSES).optional(),
  /** Only the open disputes past disputes.flagDays. */
  flagged: z.enum(['true', 'false']).optional(),
  /** An order's number ("1042" or "№1042"). */
  q: z.string().trim().max(30).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type AdminDisputesQuery = z.input<typeof adminDisputesQuerySchema>;

export const resolveDisputeSchema = z
  .object({
    outcome: z.enum(DISPUTE_OUTCOMES, { error: DISPUTE_MESSAGES.badOutcome }),
    seller_percent: z.number({ error: DISPUTE_MESSAGES.badPercent }).int(DISPUTE_MESSAGES.badPercent).min(0, DISPUTE_MESSAGES.badPercent).max(100, DISPUTE_MESSAGES.badPercent).nullish(),
    comment: z
      .string()
      .trim()
      .max(2000, DISPUTE_MESSAGES.commentLong)
      .nullish()
      .transform((v) => v ?? ''),
  })
  .superRefine((v, ctx) => {
    if (v.outcome === 'split' && (v.seller_percent === null || v.seller_percent === undefined))
      ctx.addIssue({ code: 'custom', path: ['seller_percent'], message: DISPUTE_MESSAGES.percentRequired });
  })
  .transform((v) => ({ ...v, seller_percent: v.outcome === 'refund' ? 0 : v.outcome === 'release' ? 100 : v.seller_percent! }));
export type ResolveDisputeInput = z.input<typeof resolveDisputeSchema>;
