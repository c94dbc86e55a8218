import type { ApiError } from '#contract/api';
import { API_ERROR_CODES, MESSAGES } from '#contract/messages';

/** SPEC §8: what the register page shows for a failed registration. */
export function registerErrorText(error: ApiError): string {
  if (error.message === API_ERROR_CODES.emailExists) return MESSAGES.emailExists;
  if (error.message === API_ERROR_CODES.userNameExists) return MESSAGES.userNameExists;
  return `${MESSAGES.unexpected}${error.message && error.message !== MESSAGES.unexpected ? `: ${error.message}` : ''}`;
}

/** SPEC §8: "Неверный логин или пароль" for HTTP 400, "Непредвиденная ошибка" for anything else. */
export function loginErrorText(error: ApiError): string {
  return error.status === 400 ? MESSAGES.loginBadCredentials : MESSAGES.unexpected;
}
