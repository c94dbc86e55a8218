import type { ApiError } from '#contract/api';
import { API_ERROR_CODES, MESSAGES } from '#contract/messages';

/** SPEC §8: what the register page shows for a failed registration. */
export function registerErrorText(error: ApiError): string {
  if (error.message === API_ERROR_CODES.emailExists) return MESSAGES.emailExists;
  if (error.message === API_ERROR_CODES.userNameExists) return MESSAGES.userNameExists;
  return `${MESSAGES.unexpected}${error.message && error.message !== MESSAGES.unexpected ? `: ${error.message}` : ''}`;
}

/**
 * Where a refused registration points on the form, beside SPEC §8's toast (issue 15: not the toast's text a second
 * time): the field to change and what to do instead.
 */
export function registerFieldErrors(error: ApiError): Record<string, string[]> | undefined {
  if (error.message === API_ERROR_CODES.emailExists) return { email: ['Этот email уже зарегистрирован: войдите или восстановите пароль'] };
  if (error.message === API_ERROR_CODES.userNameExists) return { user_name: ['Этот логин занят, выберите другой'] };
  return error.errors;
}

/** SPEC §8: "Неверный логин или пароль" for HTTP 400, "Непредвиденная ошибка" for anything else. */
export function loginErrorText(error: ApiError): string {
  return error.status === 400 ? MESSAGES.loginBadCredentials : MESSAGES.unexpected;
}
