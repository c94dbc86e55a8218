import { capitalised as cap, orderName, type OrderName } from '#contract/order-name';
import { disputePath, kind, orderChatPath, type KindDef } from './kind.ts';
import {
  bidAcceptedLetter,
  bidRejectedLetter,
  dealEndedLetter,
  dealEndingLetter,
  disputeEventLetter,
  type DisputeLetterEvent,
  newBidLetter,
  orderEventLetter,
  type OrderLetterEvent,
  paymentReceiptLetter,
  payoutDetailsLetter,
  refundRefusedLetter,
  stageFundingLetter,
  topUpReceiptLetter,
} from './builders.ts';

// Each names a stage as a stage («этап 2 «Макеты» заказа №1042», ADR 065) and a whole order as before.
const ORDER_NOTICES: Record<OrderLetterEvent, (o: OrderName) => string> = {
  created: (o) => `Новый ${orderName(o)} оплачен — можно приступать`,
  paid: (o) => `${cap(orderName(o))} оплачен — можно приступать`,
  delivered: (o) => `Работа по ${orderName(o, 'dat')} сдана`,
  revision: (o) => `Заказчик запросил доработку по ${orderName(o, 'dat')}`,
  completed: (o) => `${cap(orderName(o))} завершён`,
  autoCompleted: (o) => `${cap(orderName(o))} принят автоматически`,
  cancelled: (o) => `${cap(orderName(o))} отменён`,
  cancelProposed: (o) => `Предложение отменить ${orderName(o)}`,
  cancelDeclined: (o) => `Отмена ${orderName(o, 'gen')} отклонена`,
};

const DISPUTE_NOTICES: Record<DisputeLetterEvent, (o: OrderName) => string> = {
  opened: (o) => `Открыт спор по ${orderName(o, 'dat')}`,
  cancelled: (o) => `Спор по ${orderName(o, 'dat')} отменён`,
  resolved: (o) => `Решение по спору ${orderName(o, 'about')}`,
};

/** What a letter names an order (or a stage of it) by, from its kind's data. */
const orderOf = (d: OrderName) => ({ number: d.number, title: d.title, stage: d.stage ?? null });

/** The letters of bids, orders, their payments, safe deals and disputes: spread into LETTER_KINDS (notify.ts). */
export const ORDER_LETTER_KINDS = {
  // A refund to the card the provider refused (ADR 051): sent whatever the preferences say, as money moved.
  'payment.refundRefused': kind<OrderName & { amount: string }>(
    null,
    (s, name, d) => refundRefusedLetter({ brand: s.brand, name, link: s.url('/profile/finance'), ...d }),
    (d) => ({
      text: `Возврат ${d.amount} по ${orderName(d, 'dat', { title: false })} не прошёл на карту — деньги на вашем балансе`,
      link: '/profile/finance',
    }),
  ),
  // A seller's share waiting in a safe deal for a card or wallet (ADR 053): money they cannot get otherwise.
  'payout.detailsNeeded': kind<OrderName & { amount: string; returned: boolean }>(
    null,
    (s, name, d) => payoutDetailsLetter({ brand: s.brand, name, link: s.url('/profile/finance'), ...d }),
    (d) => ({
      text: `Укажите карту или кошелёк для выплаты ${d.amount} за ${orderName(d, 'nom', { title: false })}`,
      link: '/profile/finance',
    }),
  ),
  // A safe deal's end (ADR 058): before it, what to do so that the money is not returned; after it, where it went.
  // Sent whatever the preferences say, as money moves.
  'deal.ending': kind<OrderName & { date: string; payout: boolean; amount: string; path: string }>(
    null,
    (s, name, d) => dealEndingLetter({ brand: s.brand, name, link: s.url(d.path), ...d }),
    (d) => ({
      text: d.payout
        ? `Укажите карту или кошелёк до ${d.date}, иначе ${d.amount} за ${orderName(d, 'nom', { title: false })} вернутся заказчику`
        : `Безопасная сделка по ${orderName(d, 'dat', { title: false })} закончится ${d.date}: завершите ${d.stage ? 'этап' : 'заказ'} до этого дня`,
      link: d.path,
    }),
  ),
  'deal.ended': kind<OrderName & { amount: string; seller: boolean }>(
    null,
    (s, name, d) => dealEndedLetter({ brand: s.brand, name, link: s.url('/profile/finance'), ...d }),
    (d) => ({
      text: `Срок безопасной сделки по ${orderName(d, 'dat', { title: false })} истёк: ЮKassa вернула ${d.amount} заказчику`,
      link: '/profile/finance',
    }),
  ),
  'bid.new': kind<{ title: string; seller: string; price: string; days: string }>(
    'bids',
    (s, name, d) => newBidLetter({ brand: s.brand, name, link: s.url('/profile/bids'), ...d }),
    (d) => ({ text: `Новый отклик на проект «${d.title}»: ${d.seller}, ${d.price}`, link: '/profile/bids' }),
  ),
  'bid.accepted': kind<{ title: string; chatId: string }>(
    'orders',
    (s, name, d) => bidAcceptedLetter({ brand: s.brand, name, link: s.url(orderChatPath(d.chatId)), title: d.title }),
    (d) => ({ text: `Ваш отклик на проект «${d.title}» принят: заказ ждёт оплаты`, link: orderChatPath(d.chatId) }),
  ),
  'bid.rejected': kind<{ title: string }>(
    'bids',
    (s, name, d) => bidRejectedLetter({ brand: s.brand, name, link: s.url('/projects'), title: d.title }),
    (d) => ({ text: `Заказчик выбрал другого исполнителя для «${d.title}»`, link: '/profile/bids' }),
  ),
  'order.event': kind<OrderName & { event: OrderLetterEvent; reason?: string | null; path: string }>(
    'orders',
    (s, name, d) =>
      orderEventLetter({
        brand: s.brand,
        name,
        link: s.url(d.path),
        ...orderOf(d),
        event: d.event,
        reason: d.reason,
      }),
    (d) => ({ text: ORDER_NOTICES[d.event](d), link: d.path }),
  ),
  // A stage left unfunded after the one before it completed (ADR 065): once, to the customer (the link pays it)
  // and to the seller (the link opens the order's chat), under "Заказы и оплата" like the order's other events.
  'order.stageFunding': kind<OrderName & { seller: boolean; path: string }>(
    'orders',
    (s, name, d) =>
      stageFundingLetter({
        brand: s.brand,
        name,
        link: s.url(d.path),
        ...orderOf(d),
        seller: d.seller,
      }),
    (d) => ({
      text: d.seller
        ? `${cap(orderName(d))} ещё не оплачен — начинайте работу после оплаты`
        : `Оплатите ${orderName(d)}, чтобы исполнитель начал работу`,
      link: d.path,
    }),
  ),
  // A receipt of every payment for an order (ADR 042): sent whatever the preferences say, the proof of a payment;
  // no notification of its own (the payment page and the order's chat show the payment).
  'payment.receipt': kind<
    OrderName & {
      lines: string[];
      amount: string;
      method: string;
      fee: string | null;
      paidAt: string;
      credited: boolean;
      path: string;
    }
  >(null, (s, name, d) => paymentReceiptLetter({ brand: s.brand, name, link: s.url(d.path), ...d })),
  // A receipt of every top-up of the balance (ADR 062): sent whatever the preferences say, like an order's receipt;
  // the finance page lists the top-up.
  'payment.topUpReceipt': kind<{
    credited: string;
    amount: string;
    method: string;
    fee: string | null;
    paidAt: string;
    path: string;
  }>(null, (s, name, d) => topUpReceiptLetter({ brand: s.brand, name, link: s.url(d.path), ...d })),
  // Disputes (ADR 034): under "Споры"; the notification opens the person's disputes.
  'dispute.event': kind<OrderName & { id: string; event: DisputeLetterEvent; decision: string | null }>(
    'disputes',
    (s, name, d) =>
      disputeEventLetter({
        brand: s.brand,
        name,
        link: s.url(disputePath(d.id)),
        ...orderOf(d),
        event: d.event,
        decision: d.decision,
      }),
    (d) => ({ text: DISPUTE_NOTICES[d.event](d), link: disputePath(d.id) }),
  ),
} satisfies Record<string, KindDef<never>>;
