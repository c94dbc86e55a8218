// Disputes' zod-free vocabulary (issue 14, ADR 034): reasons, states, outcomes and the module's Russian messages.
// Pages import it.

export const DISPUTE_REASONS = ['not_delivered', 'poor_quality', 'not_accepted', 'no_contact', 'other'] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];
export const DISPUTE_REASON_LABELS: Record<DisputeReason, string> = {
  not_delivered: 'Работа не сдана в срок',
  poor_quality: 'Результат не соответствует заданию',
  not_accepted: 'Заказчик не принимает работу',
  no_contact: 'Другая сторона не выходит на связь',
  other: 'Другое',
};
/**
 * The reasons each side of the order may give (ADR 039): a complaint about the other side's part, so the customer
 * never says "the customer does not accept" nor the seller "the work is late".
 */
export const DISPUTE_REASONS_BY_SIDE: Record<'customer' | 'seller', readonly DisputeReason[]> = {
  customer: ['not_delivered', 'poor_quality', 'no_contact', 'other'],
  seller: ['not_accepted', 'no_contact', 'other'],
};

export const DISPUTE_STATUSES = ['open', 'resolved', 'cancelled'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
export const DISPUTE_STATUS_LABELS: Record<DisputeStatus, string> = {
  open: 'На рассмотрении',
  resolved: 'Решён',
  cancelled: 'Отменён',
};

/** An admin's decision: everything back to the customer, everything to the seller, or a split by percent. */
export const DISPUTE_OUTCOMES = ['refund', 'release', 'split'] as const;
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];
export const DISPUTE_OUTCOME_LABELS: Record<DisputeOutcome, string> = {
  refund: 'Полный возврат заказчику',
  release: 'Полная оплата исполнителю',
  split: 'Разделение суммы',
};

/** Disputes one person may open in a day (an order has one open dispute at a time anyway). */
export const DISPUTES_PER_DAY = 10;
export const DISPUTE_MAX_DESCRIPTION = 5000;
export const DISPUTE_MIN_DESCRIPTION = 20;
export const DISPUTE_MAX_FILES = 10;

export const DISPUTE_MESSAGES = {
  notFound: 'Спор не найден',
  badId: 'Неверный идентификатор спора',
  badOrder: 'Неверный идентификатор заказа',
  orderNotFound: 'Заказ не найден',
  badReason: 'Выберите причину спора',
  reasonOfOtherSide: 'Эта причина — для другой стороны заказа. Выберите причину из списка',
  descriptionShort: `Опишите ситуацию подробнее: не короче ${DISPUTE_MIN_DESCRIPTION} символов`,
  descriptionLong: `Не длиннее ${DISPUTE_MAX_DESCRIPTION} символов`,
  tooManyFiles: `Не больше ${DISPUTE_MAX_FILES} файлов`,
  partiesOnly: 'Открыть спор могут только участники заказа',
  notOpenable: 'Спор можно открыть только по оплаченному заказу в работе или сданному на проверку',
  alreadyOpen: 'По этому заказу уже открыт спор',
  tooMany: 'Слишком много споров за сутки. Попробуйте позже',
  openerOnly: 'Отменить заявку может только тот, кто открыл спор',
  notOpen: 'Спор уже закрыт',
  alreadyResolved: 'Спор уже решён другим администратором',
  badOutcome: 'Выберите решение: возврат, оплата исполнителю или разделение',
  badPercent: 'Доля исполнителя — целое число процентов от 0 до 100',
  percentRequired: 'Укажите долю исполнителя в процентах',
  commentLong: 'Не длиннее 2000 символов',
} as const;
