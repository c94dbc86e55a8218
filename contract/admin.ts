import { z } from 'zod';

export const adminUserSchema = z.object({
  _id: z.string(),
  user_name: z.string(),
  name: z.string(),
  surname: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  roles: z.array(z.string()),
  active_role: z.string(),
  email_confirmed: z.boolean(),
  blocked: z.boolean(),
  block_reason: z.string().nullable(),
  created_at: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const auditEntrySchema = z.object({
  _id: z.string(),
  actor: z.string().nullable(),
  action: z.string(),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** GET /api/admin/users/{id}: the account and what administrators did to it. */
export const adminUserDetailSchema = z.object({ user: adminUserSchema, audit: z.array(auditEntrySchema) });
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

export const ADMIN_USER_STATES = ['active', 'blocked', 'unconfirmed'] as const;

export const adminUsersQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  role: z.enum(['customer', 'seller', 'admin']).optional(),
  state: z.enum(ADMIN_USER_STATES).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const blockUserSchema = z
  .object({ blocked: z.boolean(), reason: z.string().trim().max(500).optional() })
  .refine((v) => !v.blocked || (v.reason && v.reason.length >= 3), { message: 'Укажите причину блокировки', path: ['reason'] });

export const adminRoleSchema = z.object({ admin: z.boolean() });

export const ADMIN_MESSAGES = {
  notYourself: 'Нельзя изменить собственную учётную запись',
  userNotFound: 'Пользователь не найден',
} as const;
