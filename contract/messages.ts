// SPEC §8 texts and the other Russian messages the API answers with.
import { PAGE_MESSAGES } from './page-messages.ts';

export const MESSAGES = {
  ...PAGE_MESSAGES,
  loginBadCredentials: 'Неверный логин или пароль',
  emailExists: 'Пользователь с таким email уже существует',
  userNameExists: 'Пользователь с таким логином уже существует',
  messageCreateFailed: 'Не удалось создать сообщение',
  disputeCancelled: 'Заявка отменена',


  validation: 'Проверьте правильность заполнения полей',
  unauthorized: 'Требуется вход в аккаунт',
  forbidden: 'Недостаточно прав',
  notFound: 'Не найдено',
  tooManyRequests: 'Слишком много запросов, попробуйте позже',
  payloadTooLarge: 'Слишком большой запрос',
  badHost: 'Неверный адрес сайта в запросе',
  internal: 'Внутренняя ошибка сервера, попробуйте позже',
  unavailable: 'Сервис временно недоступен, повторите попытку',
} as const;

/** Server-side error codes that SPEC fixes in English (the client maps them to MESSAGES). */
export const API_ERROR_CODES = {
  emailExists: 'Email already exists',
  userNameExists: 'User name already exists',
} as const;
