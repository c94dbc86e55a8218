import { z } from 'zod';
import { PRIVACY_MESSAGES } from './privacy.ts';

// Request bodies of the account calls, shared by the server (validation) and the web forms (inline errors).

export const USER_NAME_RULE = /^[A-Za-z0-9_]{3,32}$/;
export const REGISTRABLE_ROLES = ['customer', 'seller'] as const;

export const passwordSchema = z
  .string({ error: 'Введите пароль' })
  .min(8, 'Пароль должен быть не короче 8 символов')
  .max(128, 'Пароль должен быть не длиннее 128 символов')
  .refine((p) => /\p{L}/u.test(p) && /\d/.test(p), 'Пароль должен содержать букву и цифру');

export const emailSchema = z
  .string({ error: 'Введите email' })
  .trim()
  .max(254, 'Слишком длинный email')
  .pipe(z.email('Введите корректный email'))
  .transform((e) => e.toLowerCase());

const personName = (what: string) =>
  z
    .string({ error: `Введите ${what}` })
    .trim()
    .min(1, `Введите ${what}`)
    .max(50, `Слишком длинное значение`);

export const registerSchema = z
  .object({
    user_name: z
      .string({ error: 'Введите логин' })
      .trim()
      .regex(USER_NAME_RULE, 'Логин: от 3 до 32 латинских букв, цифр или «_»'),
    name: personName('имя'),
    surname: personName('фамилию'),
    email: emailSchema,
    password: passwordSchema,
    repeat_password: z.string({ error: 'Повторите пароль' }),
    role: z.enum(REGISTRABLE_ROLES, { error: 'Выберите роль: покупатель или продавец' }),
    'cf-turnstile-response': z.string({ error: 'Подтвердите, что вы не робот' }).min(1, 'Подтвердите, что вы не робот'),
    referralCode: z.string().trim().max(32).optional(),
    /** 152-ФЗ as of 156-ФЗ: a separate consent to the processing of personal data, never implied (ADR 052). */
    personal_data_consent: z.literal(true, { error: PRIVACY_MESSAGES.consentRequired }),
  })
  .refine((v) => v.password === v.repeat_password, { message: 'Пароли не совпадают', path: ['repeat_password'] });
export type RegisterBody = z.input<typeof registerSchema>;

export const loginSchema = z.object({
  email: z.string({ error: 'Введите email' }).trim().min(1, 'Введите email').max(254).transform((e) => e.toLowerCase()),
  password: z.string({ error: 'Введите пароль' }).min(1, 'Введите пароль').max(128),
});
export type LoginBody = z.input<typeof loginSchema>;

export const tokenBodySchema = z.object({ token: z.string().min(10).max(200) });

export const recoverSchema = z.object({ email: emailSchema });
export type RecoverBody = z.input<typeof recoverSchema>;

const repeatSchema = z.string({ error: 'Повторите пароль' });

export const resetSchema = z
  .object({ token: z.string().min(10).max(200), password: passwordSchema, repeat_password: repeatSchema })
  .refine((v) => v.password === v.repeat_password, { message: 'Пароли не совпадают', path: ['repeat_password'] });
export type ResetBody = z.input<typeof resetSchema>;

export const changePasswordSchema = z
  .object({
    current_password: z.string({ error: 'Введите текущий пароль' }).min(1, 'Введите текущий пароль').max(128),
    password: passwordSchema,
    repeat_password: repeatSchema,
  })
  .refine((v) => v.password === v.repeat_password, { message: 'Пароли не совпадают', path: ['repeat_password'] });

export type ChangePasswordBody = z.input<typeof changePasswordSchema>;

export const changeEmailSchema = z.object({ email: emailSchema, password: z.string({ error: 'Введите пароль' }).min(1, 'Введите пароль').max(128) });
export type ChangeEmailBody = z.input<typeof changeEmailSchema>;

export const NOTIFICATION_KINDS = {
  messages: 'Новые сообщения',
  orders: 'Заказы и оплата',
  bids: 'Отклики на проекты',
  reviews: 'Отзывы',
  disputes: 'Споры',
  moderation: 'Решения модерации о ваших услугах и проектах',
  news: 'Новости площадки',
} as const;
export type NotificationKind = keyof typeof NOTIFICATION_KINDS;

export const profileSchema = z.object({
  name: personName('имя').optional(),
  surname: personName('фамилию').optional(),
  about: z.string().trim().max(2000, 'Не более 2000 символов').optional(),
  city: z.uuid('Выберите город из списка').nullable().optional(),
  country: z.uuid('Выберите страну из списка').nullable().optional(),
  preferences: z
    .object({
      currency: z.enum(['RUB', 'USDT', 'BTC']).optional(),
      emailNotifications: z.partialRecord(z.enum(Object.keys(NOTIFICATION_KINDS) as [NotificationKind, ...NotificationKind[]]), z.boolean()).optional(),
    })
    .optional(),
});
export type ProfileBody = z.input<typeof profileSchema>;

export const roleSwitchSchema = z.object({ role: z.enum(REGISTRABLE_ROLES, { error: 'Неизвестная роль' }) });

/** PUT /api/users/me/avatar: a file the person uploaded (POST /api/files/single), or null to remove the avatar. */
export const avatarSchema = z.object({ filePath: z.string().max(300).nullable() });

/** The answer of a call that only says what happened (a letter sent, a password changed). */
export const noticeSchema = z.object({ message: z.string() });

export const AUTH_MESSAGES = {
  blocked: 'Аккаунт заблокирован',
  tooManyAttempts: 'Слишком много попыток входа, попробуйте через 15 минут',
  botCheckFailed: 'Проверка на робота не пройдена, попробуйте ещё раз',
  linkInvalid: 'Ссылка недействительна или устарела',
  confirmed: 'Email подтверждён',
  alreadyConfirmed: 'Email уже подтверждён: ссылка больше не нужна',
  resendTooOften: 'Письмо уже отправлено, повторить можно через минуту',
  recoverSent: 'Если аккаунт с таким email существует, мы отправили на него письмо со ссылкой',
  passwordChanged: 'Пароль изменён',
  wrongPassword: 'Неверный текущий пароль',
  tooManyPasswordAttempts: 'Слишком много неверных попыток, попробуйте через 15 минут',
  emailChangeSent: 'Письмо для подтверждения отправлено на новый адрес',
  needSellerRole: 'Сначала станьте продавцом',
  mustConfirm: 'Подтвердите email, чтобы продолжить',
  sessionNotFound: 'Сеанс не найден или уже завершён',
} as const;

/** A session as the settings page lists it (ADR 055): the device, the coarse network and city, when it was last seen. */
export const sessionSchema = z.object({
  id: z.string(),
  device: z.string(),
  os: z.string(),
  browser: z.string(),
  /** The network, coarsened: 203.0.113.0/24 or 2001:db8:1::/48; null when unknown. */
  address: z.string().nullable(),
  /** Where the address is, «Москва, Россия», when the server has a GeoIP database (ADR 059); else null. */
  place: z.string().nullable(),
  created_at: z.string(),
  last_seen_at: z.string(),
  /** The session of the request's own token («Это устройство»). */
  current: z.boolean(),
});
export type SessionView = z.infer<typeof sessionSchema>;
