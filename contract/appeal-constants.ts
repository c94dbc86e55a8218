// Appeals' zod-free vocabulary (issue 14, ADR 035): subjects, states, limits and the module's Russian messages,
// shared by the server and the pages.
import { charsAfter } from './plural.ts';

/**
 * What an appeal is about. The first four are complaints about an object; `dispute` objects to a dispute's
 * decision, `moderation` to a moderator's decision about one's own service or project; `question` has no object.
 */
export const APPEAL_SUBJECTS = ['service', 'project', 'user', 'order', 'dispute', 'moderation', 'question'] as const;
export type AppealSubject = (typeof APPEAL_SUBJECTS)[number];

/** new → in_progress (an admin took it) → closed (with the admin's answer). */
export const APPEAL_STATUSES = ['new', 'in_progress', 'closed'] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];

/** The kind of object an appeal names (a moderation objection names a service or a project). */
export const APPEAL_OBJECT_TYPES = ['service', 'project', 'user', 'order', 'dispute'] as const;
export type AppealObjectType = (typeof APPEAL_OBJECT_TYPES)[number];

export const APPEAL_MIN_TEXT = 10;
export const APPEAL_MAX_TEXT = 5000;
/** An answer says what was done: «Ок» is not one (ADR 046). */
export const APPEAL_MIN_ANSWER = 10;
export const APPEAL_MAX_ANSWER = 5000;
export const APPEAL_MAX_FILES = 5;

export const APPEAL_SUBJECT_LABELS: Record<AppealSubject, string> = {
  service: 'Жалоба на услугу',
  project: 'Жалоба на проект',
  user: 'Жалоба на пользователя',
  order: 'Жалоба по заказу',
  dispute: 'Несогласие с решением по спору',
  moderation: 'Несогласие с решением модерации',
  question: 'Вопрос администрации',
};

export const APPEAL_STATUS_LABELS: Record<AppealStatus, string> = {
  new: 'Новое',
  in_progress: 'В работе',
  closed: 'Закрыто',
};

/** Whether a subject names an object (all but a general question). */
export const appealHasObject = (subject: AppealSubject) => subject !== 'question';

export const APPEAL_MESSAGES = {
  notFound: 'Обращение не найдено',
  badId: 'Неверный идентификатор',
  badSubject: 'Выберите тему обращения',
  objectRequired: 'Укажите, о чём обращение',
  objectNotExpected: 'У вопроса администрации нет объекта',
  objectNotFound: {
    service: 'Услуга не найдена',
    project: 'Проект не найден',
    user: 'Пользователь не найден',
    order: 'Заказ не найден',
    dispute: 'Спор не найден',
    moderation: 'Услуга или проект не найдены среди ваших',
  } satisfies Record<Exclude<AppealSubject, 'question'>, string>,
  notAboutYourself: 'Нельзя пожаловаться на самого себя или на своё',
  textEmpty: 'Опишите суть обращения',
  textTooShort: `Обращение — не короче ${APPEAL_MIN_TEXT} символов`,
  tooLong: (max: number) => `Не длиннее ${charsAfter(max)}`,
  tooManyFiles: `Не больше ${APPEAL_MAX_FILES} файлов`,
  notYourFile: 'Прикрепите файлы, загруженные вами',
  tooMany: 'Слишком много обращений за сутки, попробуйте завтра',
  answerEmpty: 'Напишите ответ',
  answerTooShort: `Ответ — не короче ${APPEAL_MIN_ANSWER} символов: напишите, что сделано`,
  alreadyClosed: 'Обращение уже закрыто',
  alreadyTaken: 'Обращение уже взято в работу',
} as const;
