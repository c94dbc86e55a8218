import type { BidStatus } from './money.ts';
import { charsAfter } from './plural.ts';

// Bids' plain values, without zod: the pages import these.

export const BID_COMMENT_MAX = 5000;
/** The shortest comment by default (settings bids.minComment; the server checks the setting). */
export const BID_COMMENT_MIN_DEFAULT = 30;

export const BID_STATUS_TITLES: Record<BidStatus, string> = {
  active: 'Активен',
  accepted: 'Принят',
  rejected: 'Отклонён',
  withdrawn: 'Отозван',
};

export const BID_MESSAGES = {
  notFound: 'Отклик не найден',
  projectNotFound: 'Проект не найден',
  sellersOnly: 'Откликаться на проекты можно в режиме «Продавец»',
  ownProject: 'Нельзя откликнуться на свой проект',
  closed: 'Отклики на этот проект закрыты',
  duplicate: 'Вы уже откликнулись на этот проект',
  notActive: 'Отклик уже не активен',
  changed: 'Исполнитель только что изменил цену или срок отклика: проверьте новые условия и примите его снова',
  commentTooShort: (min: number) => `Комментарий — от ${charsAfter(min)}`,
  perDay: (limit: number) => `Не больше ${limit} новых откликов в сутки. Попробуйте позже`,
  tooFast: 'Слишком много откликов с вашего адреса. Попробуйте позже',
  customerOnly: 'Отклики на проект видит только его заказчик',
  acceptOwn: 'Принять отклик может только заказчик проекта',
  sellerOnly: 'Изменить или отозвать отклик может только его автор',
  sellerBlocked: 'Исполнитель заблокирован администрацией: выберите другой отклик',
  acceptedRemove: 'Принятый отклик нельзя удалить: по нему открыт заказ',
} as const;
