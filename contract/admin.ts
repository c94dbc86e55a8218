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
  /** Whether a second factor guards the account (ADR 054). */
  two_factor: z.boolean(),
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

// ---------------------------------------------------------------------------------------------------------------
// The admin area's overview, route rules and audit log (issue 14, ADR 036).
// ---------------------------------------------------------------------------------------------------------------

export const OVERVIEW_PERIODS = ['7', '30', '90', '365'] as const;
export type OverviewPeriod = (typeof OVERVIEW_PERIODS)[number];
export const overviewQuerySchema = z.object({
  period: z.enum(OVERVIEW_PERIODS, { message: 'Период — 7, 30, 90 или 365 дней' }).default('30'),
});

/** GET /api/admin/overview: the marketplace at a glance over the last `period` Moscow days. */
export const overviewSchema = z.object({
  period: z.number().int(),
  from: z.string(),
  to: z.string(),
  /** By Moscow day, from the ledger: kopecks paid into escrow, and the platform's revenue (commission less rewards). */
  days: z.array(z.object({ day: z.string(), paid_in: z.number().int(), revenue: z.number().int(), orders: z.number().int() })),
  totals: z.object({
    paid_in: z.number().int(),
    revenue: z.number().int(),
    orders: z.number().int(),
    new_users: z.number().int(),
  }),
  /** Every order by its state now (all time). */
  orders_by_status: z.array(z.object({ status: z.string(), count: z.number().int() })),
  /** What waits for an admin now. */
  waiting: z.object({
    withdrawals: z.number().int(),
    withdrawals_amount: z.number().int(),
    /** Services in moderation, and active ones with an edit waiting. */
    services: z.number().int(),
    disputes: z.number().int(),
  }),
});
export type Overview = z.infer<typeof overviewSchema>;

export const ROUTE_RULE_KINDS = ['redirect', 'block'] as const;
export type RouteRuleKind = (typeof ROUTE_RULE_KINDS)[number];

export const ROUTE_RULE_MESSAGES = {
  notFound: 'Правило не найдено',
  pathTaken: 'Для этого адреса уже есть правило',
  badPath: 'Адрес начинается с / и не содержит пробелов, ? и #',
  reserved: 'Этот адрес нельзя перенаправить или закрыть: без него не войти в админку',
  blockRoot: 'Главную страницу закрыть нельзя',
  targetNeeded: 'Укажите, куда перенаправлять',
  badTarget: 'Адрес вида /services или ссылка https://…',
  self: 'Правило перенаправляет адрес сам на себя',
  loop: (via: string) => `Получится петля перенаправлений через ${via}`,
  blockedTarget: 'Этот адрес закрыт другим правилом',
} as const;

const rulePath = z
  .string({ error: 'Укажите адрес' })
  .trim()
  .min(1, 'Укажите адрес')
  .max(500, 'Адрес — до 500 символов')
  .regex(/^\/[^\s?#]*$/, ROUTE_RULE_MESSAGES.badPath);

export const routeRuleInputSchema = z.object({
  path: rulePath,
  kind: z.enum(ROUTE_RULE_KINDS, { error: 'Выберите действие' }),
  /** The redirect's target: a path of this site or an absolute http(s) address; ignored for a block. */
  target: z.string().trim().max(2000, 'Адрес — до 2000 символов').nullish(),
});
export type RouteRuleInput = z.input<typeof routeRuleInputSchema>;

export const adminRouteRuleSchema = z.object({
  _id: z.string(),
  path: z.string(),
  kind: z.enum(ROUTE_RULE_KINDS),
  target: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AdminRouteRule = z.infer<typeof adminRouteRuleSchema>;

export const adminRouteRulesQuerySchema = z.object({
  /** Words of the path or the target. */
  q: z.string().trim().max(200).optional(),
  kind: z.enum(ROUTE_RULE_KINDS).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const adminAuditQuerySchema = z.object({
  /** Who acted: an admin's id. */
  actor: z.uuid('Неверный идентификатор').optional(),
  /** The action, exactly ("settings.update") or its prefix ending with a dot ("service."). */
  action: z.string().trim().max(100).optional(),
  /** What it was done to: its type, and optionally its id. */
  target_type: z.string().trim().max(50).optional(),
  target_id: z.string().trim().max(100).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const adminAuditEntrySchema = auditEntrySchema.extend({
  actor_name: z.string().nullable(),
  target_type: z.string(),
  target_id: z.string(),
});
export type AdminAuditEntry = z.infer<typeof adminAuditEntrySchema>;
