// Orders' zod-free vocabulary (ADR 025): what a party may do, and the module's Russian messages. Pages import it.
import { charsAfter } from './plural.ts';

export const ORDER_PACKAGES = ['economy', 'standard', 'business'] as const;
export type OrderPackage = (typeof ORDER_PACKAGES)[number];

/** What a member may do to an order now: the order card's buttons. */
export const ORDER_ACTIONS = ['pay', 'deliver', 'revision', 'accept', 'cancel', 'propose_cancel', 'answer_cancel'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

export const ORDER_MESSAGES = {
  notFound: 'Заказ не найден',
  notAwaitingPayment: 'Заказ уже оплачен или отменён',
  headNotPayable: 'Заказ оплачивается по этапам: оплатите его текущий этап',
  headByStages: 'Заказ выполняется по этапам: действия — с его этапами',
  /** A stage is funded only after every earlier stage that was not dropped (ADR 065). */
  fundEarlierStage: (n: number, title: string) => `Сначала оплатите этап ${n} «${title}»`,
  /** A stage dropped before it was funded (ADR 065): no money moved. */
  stageDropped: 'Этап снят до оплаты',
  badId: 'Неверный идентификатор заказа',
  badService: 'Неверный идентификатор услуги',
  badPackage: 'Выберите пакет: эконом, стандарт или бизнес',
  badExtras: 'Неверный выбор дополнительных опций',
  serviceNotFound: 'Услуга не найдена',
  serviceInactive: 'Эту услугу сейчас нельзя заказать',
  ownService: 'Нельзя заказать собственную услугу',
  noSuchPackage: 'У этой услуги нет такого пакета',
  noSuchExtra: 'У этой услуги нет такой дополнительной опции',
  tooMany: 'Слишком много неоплаченных заказов. Оплатите или отмените созданные и попробуйте позже',
  tooLong: (max: number) => `Не длиннее ${charsAfter(max)}`,
  deliveryEmpty: 'Опишите результат работы',
  revisionEmpty: 'Опишите, что нужно доработать',
  reasonEmpty: 'Укажите причину',
  answerRequired: 'Ответьте: принять или отклонить',
  customerOnly: 'Это может сделать только заказчик',
  sellerOnly: 'Это может сделать только исполнитель',
  partiesOnly: 'Это могут сделать только участники заказа',
  notInProgress: 'Сдать работу можно только по заказу в работе',
  notDelivered: 'Работа по заказу ещё не сдана',
  noRevisionsLeft: 'Доработки по этому заказу закончились',
  cannotCancel: 'Этот заказ уже нельзя отменить',
  cancelLater:
    'Без причины заказчик может отменить заказ в течение нескольких минут после оплаты или если работа не сдана к сроку. Предложите исполнителю отмену',
  deliveredNoCancel:
    'Работа уже сдана: вернуть деньги можно только по взаимному согласию (предложите исполнителю отмену) или через спор',
  proposalPending: 'Предложение об отмене уже ждёт ответа',
  noProposal: 'Предложения об отмене нет',
  ownProposal: 'Ответить на предложение об отмене может только другая сторона',
  notPaid: 'Предложить отмену можно только по оплаченному заказу',
  disputed: 'По заказу открыт спор: дождитесь решения арбитража',
  notDisputable: 'Спор можно открыть только по оплаченному заказу в работе или сданному на проверку',
  notDisputed: 'По заказу нет открытого спора',
  badShare: 'Неверная доля исполнителя',
  draftExpired: 'Заказ не был оплачен вовремя',
  /** A card payment's safe deal ended before the order (ADR 058): ЮKassa returned the payment itself. */
  dealExpired: 'Истёк срок безопасной сделки: ЮKassa вернула оплату на карту заказчика',
} as const;

export const ORDER_STATUS_LABELS = {
  awaiting_payment: 'Ждёт оплаты',
  in_progress: 'В работе',
  delivered: 'Сдан',
  completed: 'Завершён',
  cancelled: 'Отменён',
  disputed: 'Спор',
} as const;

export const ORDER_PACKAGE_LABELS: Record<OrderPackage, string> = { economy: 'Эконом', standard: 'Стандарт', business: 'Бизнес' };

/** What an order consists of (ADR 042): its base (the package, or the work) and each extra, with their prices. */
export interface OrderContents {
  package: OrderPackage | null;
  extras: readonly { title: string; price: number }[];
  /** Kopecks, package and extras included. */
  price: number;
}

/**
 * The lines of an order's contents, the one way every page and letter itemises it: the package (or the work of a
 * bid) at the price less the extras, then each extra. An order's title already names its package (orders.create).
 */
export function orderItems(order: OrderContents): { label: string; price: number }[] {
  const extras = order.extras.reduce((sum, e) => sum + e.price, 0);
  return [
    { label: order.package ? `Пакет «${ORDER_PACKAGE_LABELS[order.package]}»` : 'Стоимость работы', price: order.price - extras },
    ...order.extras.map((e) => ({ label: e.title, price: e.price })),
  ];
}
