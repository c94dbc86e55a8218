import { z } from 'zod';
import { auditEntrySchema } from './admin.ts';
import { PROJECT_STATUSES, projectSchema, SERVICE_STATUSES, LISTING_MAX_LIMIT } from './catalog.ts';

// The admin area's moderation of the catalogue (/admin/services, /admin/projects): the queues' queries, the
// decisions with their reasons, and what an admin sees of a project. Search suggestions' moderation is in
// catalog.ts with the suggestions.

export const MODERATION_MESSAGES = {
  /** A service rejected or hidden without a reason for the seller. */
  reasonRequired: 'Укажите причину',
  /** A project hidden without a reason for the customer. */
  hideReason: 'Укажите причину скрытия',
} as const;

export const adminServicesQuerySchema = z.object({
  status: z.enum(SERVICE_STATUSES).optional(),
  q: z.string().trim().max(200).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(LISTING_MAX_LIMIT).default(20),
});

/** An admin decision: approve or restore (active), reject or hide, the latter two with a reason for the seller. */
export const serviceDecisionSchema = z
  .object({
    status: z.enum(['active', 'rejected', 'hidden']),
    reason: z.string().trim().max(1000, 'Причина — до 1000 символов').optional(),
  })
  .refine((v) => v.status === 'active' || (v.reason !== undefined && v.reason.length >= 3), {
    message: MODERATION_MESSAGES.reasonRequired,
    path: ['reason'],
  });
export type ServiceDecision = z.input<typeof serviceDecisionSchema>;

/** A project as the admin area shows it: the customer's email as well. */
export const adminProjectSchema = projectSchema.extend({
  customer_email: z.string(),
  updated_at: z.string(),
});
export type AdminProject = z.infer<typeof adminProjectSchema>;

/** One project with what moderators did with it. */
export const adminProjectDetailSchema = z.object({ project: adminProjectSchema, audit: z.array(auditEntrySchema) });

export const adminProjectsQuerySchema = z.object({
  status: z.enum(PROJECT_STATUSES).optional(),
  q: z.string().trim().max(100).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** Hide a project (with a reason for the customer) or restore it. */
export const projectDecisionSchema = z
  .object({ status: z.enum(['active', 'hidden']), reason: z.string().trim().max(500).optional() })
  .refine((v) => v.status !== 'hidden' || (v.reason !== undefined && v.reason.length >= 3), {
    message: MODERATION_MESSAGES.hideReason,
    path: ['reason'],
  });
export type ProjectDecision = z.input<typeof projectDecisionSchema>;
