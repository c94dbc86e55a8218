import { z } from 'zod';

// The second factor (ADR 054): TOTP with one-time recovery codes, the sign-in's second step, step-up before money
// and account changes, and the operator's policy. Shared by the server and the web.

/** Machine codes of the 403 answers the web reacts to (the `code` of the error envelope, next to the message). */
export const TWO_FACTOR_CODES = {
  /** A fresh second factor is needed for this action: ask for a code (POST /api/auth/step-up), then retry. */
  stepUpRequired: 'step_up_required',
  /** The policy requires a second factor this account does not have yet: set one up in /profile/settings. */
  setupRequired: 'two_factor_setup_required',
} as const;

/** 'passkey': the person has a passkey (ADR 057) and may answer the challenge with it instead of a code. */
export const TWO_FACTOR_METHODS = ['totp', 'recovery', 'passkey'] as const;
export type TwoFactorMethod = (typeof TWO_FACTOR_METHODS)[number];

/** How long a step-up confirmation counts, and how long a sign-in's second step may wait. */
export const STEP_UP_SECONDS = 5 * 60;
export const CHALLENGE_SECONDS = 5 * 60;
/** The httpOnly cookie that carries a step-up confirmation (an API client may send the header instead). */
export const STEP_UP_COOKIE = 'step_up';
export const STEP_UP_HEADER = 'x-step-up';

/** A six-digit code from the app or a recovery code (spaces and dashes are the person's, not the code's). */
export const codeSchema = z
  .string({ error: 'Введите код' })
  .trim()
  .min(1, 'Введите код')
  .max(40, 'Неверный код')
  .transform((c) => c.replace(/[\s-]/g, '').toLowerCase());

export const twoFactorLoginSchema = z.object({ challenge: z.string().min(10).max(2000), code: codeSchema });
export type TwoFactorLoginBody = z.input<typeof twoFactorLoginSchema>;

export const stepUpSchema = z.object({ code: codeSchema });
export type StepUpBody = z.input<typeof stepUpSchema>;

export const twoFactorSetupSchema = z.object({ password: z.string({ error: 'Введите пароль' }).min(1, 'Введите пароль').max(128) });
export type TwoFactorSetupBody = z.input<typeof twoFactorSetupSchema>;

export const twoFactorEnableSchema = z.object({ code: codeSchema });
export type TwoFactorEnableBody = z.input<typeof twoFactorEnableSchema>;

export const twoFactorDisableSchema = z.object({
  password: z.string({ error: 'Введите пароль' }).min(1, 'Введите пароль').max(128),
  code: codeSchema,
});
export type TwoFactorDisableBody = z.input<typeof twoFactorDisableSchema>;

/** The sign-in's answer when the account has a second factor: no token yet, a challenge for the second step. */
export const twoFactorChallengeSchema = z.object({
  two_factor: z.object({ challenge: z.string(), methods: z.array(z.enum(TWO_FACTOR_METHODS)) }),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeSchema>;

/** What the settings page shows about the person's second factor. */
export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  enabled_at: z.string().nullable(),
  recovery_codes_left: z.number().int(),
  /** The operator's policy asks this person for a second factor (admins; everyone, when so set). */
  required: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** A new authenticator: the secret as text and as a QR code (an SVG of the otpauth:// link). */
export const twoFactorSetupAnswerSchema = z.object({ secret: z.string(), uri: z.string(), qr_svg: z.string() });
export type TwoFactorSetupAnswer = z.infer<typeof twoFactorSetupAnswerSchema>;

export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });

export const stepUpAnswerSchema = z.object({ token: z.string(), expires_in: z.number().int() });

export const TWO_FACTOR_MESSAGES = {
  wrongCode: 'Неверный код. Проверьте время на телефоне и введите новый код из приложения',
  codeUsed: 'Этот код уже использован: дождитесь следующего кода в приложении',
  challengeExpired: 'Время на ввод кода истекло: войдите ещё раз',
  tooManyCodes: 'Слишком много неверных кодов, попробуйте через 15 минут',
  alreadyEnabled: 'Двухфакторная защита уже включена',
  notEnabled: 'Двухфакторная защита не включена',
  setupFirst: 'Сначала начните подключение: приложение ещё не получило ключ',
  stepUpRequired: 'Подтвердите действие кодом из приложения-аутентификатора или ключом доступа',
  setupRequired: 'Для этого раздела нужна двухфакторная защита: включите её в настройках профиля',
  enabled: 'Двухфакторная защита включена',
  disabled: 'Двухфакторная защита выключена',
  reset: 'Двухфакторная защита сброшена, сеансы пользователя завершены',
} as const;
