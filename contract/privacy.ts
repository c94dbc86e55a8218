import { z } from 'zod';

// Personal data under 152-ФЗ (ADR 052): the operator's versioned texts, consents, the export and the deletion.

export const PRIVACY_DOCUMENT_KINDS = ['policy', 'consent'] as const;
export type PrivacyDocumentKind = (typeof PRIVACY_DOCUMENT_KINDS)[number];
export const PRIVACY_DOCUMENT_PATHS: Record<PrivacyDocumentKind, string> = { policy: '/privacy', consent: '/consent' };

export const DELETION_STATUSES = ['pending', 'cancelled', 'done'] as const;
export type DeletionStatus = (typeof DELETION_STATUSES)[number];
export const DELETION_STATUS_LABELS: Record<DeletionStatus, string> = {
  pending: 'Ожидает удаления',
  cancelled: 'Отменён',
  done: 'Данные удалены',
};

export const PRIVACY_MESSAGES = {
  consentRequired: 'Чтобы зарегистрироваться, дайте согласие на обработку персональных данных',
  consentOutdated: 'Текст согласия обновился: прочитайте новую редакцию и подтвердите согласие',
  consentAccepted: 'Согласие принято',
  documentNotFound: 'Документ не найден',
  deletionRequested: 'Запрос на удаление принят',
  deletionCancelled: 'Удаление аккаунта отменено',
  deletionAlreadyRequested: 'Удаление аккаунта уже запрошено',
  deletionNotRequested: 'Удаление аккаунта не запрашивалось',
  deletionOpenOrders: 'Нельзя удалить аккаунт, пока есть незавершённые заказы: завершите или отмените их',
  deletionOpenDisputes: 'Нельзя удалить аккаунт, пока идёт спор по заказу',
  deletionBalance: 'Нельзя удалить аккаунт, пока на балансе есть деньги: сначала выведите их',
  deletionAdmin: 'Аккаунт администратора удалить нельзя: сначала снимите права администратора',
} as const;

export const privacyKindParams = z.object({ kind: z.enum(PRIVACY_DOCUMENT_KINDS, { error: 'Документ не найден' }) });

export const privacyDocumentSchema = z.object({
  _id: z.string(),
  kind: z.enum(PRIVACY_DOCUMENT_KINDS),
  version: z.number().int(),
  title: z.string(),
  body: z.string(),
  created_at: z.string(),
});
export type PrivacyDocument = z.infer<typeof privacyDocumentSchema>;

export const privacyDocumentInputSchema = z.object({
  title: z.string({ error: 'Введите заголовок' }).trim().min(1, 'Введите заголовок').max(200, 'Не длиннее 200 символов'),
  body: z.string({ error: 'Введите текст' }).trim().min(50, 'Текст слишком короткий').max(100_000, 'Не длиннее 100 000 символов'),
});
export type PrivacyDocumentInput = z.input<typeof privacyDocumentInputSchema>;

/** The consent a person gives at the sign-in gate: to the version they read. */
export const acceptConsentSchema = z.object({ version: z.number({ error: 'Укажите редакцию' }).int().min(1).max(1_000_000) });

export const deletionRequestSchema = z.object({
  _id: z.string(),
  status: z.enum(DELETION_STATUSES),
  requested_at: z.string(),
  due_at: z.string(),
  cancelled_at: z.string().nullable(),
  done_at: z.string().nullable(),
});
export type DeletionRequest = z.infer<typeof deletionRequestSchema>;

/** What the signed-in person owes and has asked for: a consent to the current text, a pending deletion. */
export const privacyStatusSchema = z.object({
  consent: z.object({ version: z.number().int(), accepted: z.boolean(), title: z.string() }),
  deletion: deletionRequestSchema.nullable(),
  cooling_off_days: z.number().int(),
});
export type PrivacyStatus = z.infer<typeof privacyStatusSchema>;

export const deletionBodySchema = z.object({
  password: z.string({ error: 'Введите пароль' }).min(1, 'Введите пароль').max(128),
});

export const adminConsentSchema = z.object({
  _id: z.string(),
  user: z.object({ _id: z.string(), name: z.string() }),
  kind: z.enum(PRIVACY_DOCUMENT_KINDS),
  version: z.number().int(),
  given_at: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export type AdminConsent = z.infer<typeof adminConsentSchema>;

export const adminDeletionSchema = deletionRequestSchema.extend({ user: z.object({ _id: z.string(), name: z.string() }) });
export type AdminDeletion = z.infer<typeof adminDeletionSchema>;

export const privacyPageQuery = z.object({ page: z.coerce.number({ error: 'Неверная страница' }).int().min(1).max(10_000).default(1) });

/** Rows per page of the operator's lists. */
export const PRIVACY_PAGE_SIZE = 50;
