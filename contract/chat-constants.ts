// Chat's plain values, without zod: the header's unseen badge and the chat store import these, so loading them
// does not load zod (issue 11). contract/chat.ts re-exports them beside its schemas.

export const CHAT_KINDS = ['direct', 'order', 'dispute'] as const;
export type ChatKind = (typeof CHAT_KINDS)[number];

/** PRODUCT.md: up to 10 files of 20 MB each per message. */
export const MAX_MESSAGE_FILES = 10;
export const MAX_MESSAGE_LENGTH = 4000;
export const CHAT_LIST_DEFAULT_LIMIT = 20;
export const CHAT_LIST_MAX_LIMIT = 50;
export const MESSAGES_MAX_LIMIT = 50;
/** Default of the operator setting: messages a person may send per window. */
export const MESSAGES_PER_WINDOW = 30;
export const MESSAGES_WINDOW_MS = 60_000;
/** What a masked contact is replaced with. */
export const CONTACT_MASK = '[скрыто]';

export const CHAT_MESSAGES = {
  contactsMasked: 'Контакты скрыты: обмен контактами до заказа запрещён правилами',
  empty: 'Напишите сообщение или приложите файл',
  tooLong: `Сообщение — не длиннее ${MAX_MESSAGE_LENGTH} символов`,
  tooManyFiles: `Не больше ${MAX_MESSAGE_FILES} файлов в сообщении`,
  badFile: 'Загрузите файл через форму',
  notYourFile: 'Файл должен быть загружен вами',
  noRecipient: 'Укажите получателя',
  notYourself: 'Нельзя написать самому себе',
  recipientNotFound: 'Получатель не найден',
  recipientBlocked: 'Пользователь заблокирован, написать ему нельзя',
  serviceNotFound: 'Услуга не найдена',
  chatNotFound: 'Чат не найден',
  notMember: 'Вы не участник этого чата',
  messageNotFound: 'Сообщение не найдено',
  ownMessage: 'Своё сообщение нельзя отметить прочитанным',
  seenOnly: 'Сообщение можно только отметить прочитанным',
  cannotDelete: 'Чат заказа или спора удалить нельзя: он хранит историю сделки',
  tooMany: 'Слишком много сообщений, подождите минуту',
  badId: 'Неверный идентификатор',
} as const;

export const SOCKET_EVENTS = {
  newMessage: 'new_message',
  deleteChat: 'delete_chat',
  updateUser: 'update_user',
  updateMessage: 'update_message',
  newDispute: 'new_dispute',
  counters: 'get_counters',
} as const;
