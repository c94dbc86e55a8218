import { z } from 'zod';

// Passkeys (WebAuthn, ADR 057): a second factor and a password-less sign-in. The ceremonies' options and answers
// are WebAuthn's JSON forms (what @simplewebauthn/browser takes and gives); the server checks them in full.

/** How long an answer to a ceremony's options may wait (the challenge is refused after). */
export const PASSKEY_CHALLENGE_SECONDS = 5 * 60;
export const PASSKEY_NAME_MAX = 60;
export const PASSKEYS_PER_PERSON = 20;

const b64url = z
  .string()
  .max(16_384)
  .regex(/^[\w-]*$/, 'Неверный ответ ключа доступа');

/** A browser's answer to a ceremony (PublicKeyCredential.toJSON()), registration or assertion. */
export const passkeyResponseSchema = z.object({
  id: b64url.min(1),
  rawId: b64url.min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url.min(1),
    attestationObject: b64url.optional(),
    authenticatorData: b64url.optional(),
    signature: b64url.optional(),
    userHandle: b64url.optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKey: b64url.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
  authenticatorAttachment: z.string().max(32).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});
export type PasskeyResponse = z.input<typeof passkeyResponseSchema>;

/** The options of a ceremony, for navigator.credentials (PublicKeyCredential{Creation,Request}OptionsJSON). */
export const passkeyOptionsSchema = z.looseObject({ challenge: z.string() });
export type PasskeyOptions = z.infer<typeof passkeyOptionsSchema>;

export const passkeyAddSchema = z.object({
  name: z
    .string({ error: 'Назовите ключ доступа' })
    .trim()
    .min(1, 'Назовите ключ доступа')
    .max(PASSKEY_NAME_MAX, `Не длиннее ${PASSKEY_NAME_MAX} символов`),
  response: passkeyResponseSchema,
});
export type PasskeyAddBody = z.input<typeof passkeyAddSchema>;

/** The options of a sign-in: with the challenge of POST /api/auth/login (second factor), or none (password-less). */
export const passkeyLoginOptionsSchema = z.object({ challenge: z.string().min(10).max(2000).optional() });
export const passkeyLoginSchema = z.object({
  challenge: z.string().min(10).max(2000).optional(),
  response: passkeyResponseSchema,
});
export type PasskeyLoginBody = z.input<typeof passkeyLoginSchema>;

export const passkeyAssertionSchema = z.object({ response: passkeyResponseSchema });

/** A passkey as the settings page lists it. */
export const passkeySchema = z.object({
  _id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const PASSKEY_MESSAGES = {
  failed: 'Ключ доступа не подошёл: попробуйте ещё раз',
  expired: 'Время на подтверждение ключом истекло: попробуйте ещё раз',
  unknown: 'Этот ключ доступа не зарегистрирован на сайте',
  notFound: 'Ключ доступа не найден',
  duplicate: 'Этот ключ доступа уже добавлен',
  tooMany: `Можно добавить не больше ${PASSKEYS_PER_PERSON} ключей доступа`,
  none: 'У вас нет ключей доступа',
  tooManyAttempts: 'Слишком много неудачных попыток, попробуйте через 15 минут',
  added: 'Ключ доступа добавлен',
  removed: 'Ключ доступа удалён',
} as const;
