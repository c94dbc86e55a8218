import type { UserRow } from '../../modules/users/schema.ts';
import type { Letter } from '../../lib/mail.ts';
import type { OutboxWriter } from '../outbox.ts';
import { NOTIFICATION_KINDS, type NotificationKind } from '#contract/auth';
import { capitalised as cap, orderName, type OrderName } from '#contract/order-name';
import { unsubscribeToken } from './unsubscribe.ts';
import { withUnsubscribe } from './layout.ts';
import {
  appealAnsweredLetter,
  bidAcceptedLetter,
  bidRejectedLetter,
  newBidLetter,
  confirmationLetter,
  emailChangeLetter,
  orderEventLetter,
  stageFundingLetter,
  passwordResetLetter,
  newDeviceLetter,
  deletionRequestedLetter,
  type SignInDetails,
  twoFactorResetLetter,
  paymentReceiptLetter,
  topUpReceiptLetter,
  newReviewLetter,
  reviewAnsweredLetter,
  projectDecisionLetter,
  type OrderLetterEvent,
  disputeEventLetter,
  type DisputeLetterEvent,
  serviceDecisionLetter,
  unreadMessagesLetter,
  withdrawalDecisionLetter,
  refundRefusedLetter,
  payoutDetailsLetter,
  dealEndingLetter,
  dealEndedLetter,
  type ProjectDecision,
  type ServiceDecision,
  type WithdrawalDecision,
} from './builders.ts';

/** Who a letter goes to: the name it greets and the preferences it obeys (and, by id, whose notification it is). */
export type Recipient = Pick<UserRow, 'id' | 'email' | 'name' | 'preferences'>;

/** The in-app notification of an event: one line of text and the path of the object it is about. */
export interface Notice {
  text: string;
  link: string;
}

interface Site {
  brand: string;
  /** An absolute link to a path of the site. */
  url(path: string): string;
}

interface KindDef<D> {
  /**
   * The email preference (settings page, `preferences.emailNotifications`) that switches this kind off; null for
   * a transactional letter, sent whatever the preferences say because the person asked for it or needs it to keep
   * the account.
   */
  preference: NotificationKind | null;
  build(site: Site, name: string, data: D): Letter;
  /**
   * The in-app notification (ADR 030): every event that concerns a person has one, written with the letter whatever
   * the email preferences say. Transactional letters and the unread-messages reminder have none.
   */
  notice?: (data: D) => Notice;
}

const kind = <D>(
  preference: NotificationKind | null,
  build: KindDef<D>['build'],
  notice?: (data: D) => Notice,
): KindDef<D> => ({
  preference,
  build,
  ...(notice ? { notice } : {}),
});
const token = (path: string, value: string) => `${path}?token=${encodeURIComponent(value)}`;
const orderChatPath = (chatId: string) => `/profile/messages?tab=orders&chat=${encodeURIComponent(chatId)}`;

const SERVICE_NOTICES: Record<ServiceDecision, (what: string) => string> = {
  approve: (what) => `Услуга ${what} прошла модерацию и опубликована`,
  reject: (what) => `Услуга ${what} не прошла модерацию`,
  hide: (what) => `Администрация скрыла услугу ${what}`,
  restore: (what) => `Услуга ${what} снова в каталоге`,
  edit: (what) => `Администрация изменила услугу ${what}`,
};
const PROJECT_NOTICES: Record<ProjectDecision, (what: string) => string> = {
  hide: (what) => `Модератор скрыл проект ${what}`,
  restore: (what) => `Проект ${what} снова опубликован`,
  edit: (what) => `Модератор отредактировал проект ${what}`,
};
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

/** A dispute's own place: the person's disputes with this one open, its chat included (ADR 046). */
export const disputePath = (disputeId: string) => `/profile/disputes?dispute=${encodeURIComponent(disputeId)}`;
const DISPUTE_NOTICES: Record<DisputeLetterEvent, (o: OrderName) => string> = {
  opened: (o) => `Открыт спор по ${orderName(o, 'dat')}`,
  cancelled: (o) => `Спор по ${orderName(o, 'dat')} отменён`,
  resolved: (o) => `Решение по спору ${orderName(o, 'about')}`,
};

/** Every kind of letter: what it says and which preference, if any, can switch it off (docs/decisions/014). */
export const LETTER_KINDS = {
  'account.confirm': kind<{ token: string }>(null, (s, name, d) =>
    confirmationLetter({ brand: s.brand, name, link: s.url(token('/confirm_account', d.token)) }),
  ),
  'account.passwordReset': kind<{ token: string }>(null, (s, name, d) =>
    passwordResetLetter({ brand: s.brand, name, link: s.url(token('/recover', d.token)) }),
  ),
  'account.emailChange': kind<{ token: string }>(null, (s, name, d) =>
    emailChangeLetter({ brand: s.brand, name, link: s.url(token('/confirm_account', d.token)) }),
  ),
  // A sign-in from a device never seen on the account (ADR 055): sent whatever the preferences say, it keeps the account.
  'account.newDevice': kind<SignInDetails>(null, (s, name, d) =>
    newDeviceLetter({ brand: s.brand, name, link: s.url('/profile/settings'), ...d }),
  ),
  'account.twoFactorReset': kind<Record<string, never>>(null, (s, name) =>
    twoFactorResetLetter({ brand: s.brand, name, link: s.url('/profile/settings') }),
  ),
  // The notification opens the service in the seller's editor (its state and the moderator's reason are there).
  'service.decision': kind<{ id: string; title: string; decision: ServiceDecision; reason: string | null }>(
    'moderation',
    (s, name, d) =>
      serviceDecisionLetter({
        brand: s.brand,
        name,
        link: s.url('/profile/items'),
        title: d.title,
        decision: d.decision,
        reason: d.reason,
      }),
    (d) => ({
      text: SERVICE_NOTICES[d.decision](`«${d.title}»`),
      link: `/profile/items/${encodeURIComponent(d.id)}/edit`,
    }),
  ),
  'project.decision': kind<{ title: string; decision: ProjectDecision; reason: string | null; path: string }>(
    'moderation',
    (s, name, d) =>
      projectDecisionLetter({
        brand: s.brand,
        name,
        link: s.url(d.path),
        title: d.title,
        decision: d.decision,
        reason: d.reason,
      }),
    (d) => ({ text: PROJECT_NOTICES[d.decision](`«${d.title}»`), link: d.path }),
  ),
  // The money loop (issue 12): under "Заказы и оплата"; the finance page shows the decision and its reason too.
  'withdrawal.decision': kind<{ amount: string; decision: WithdrawalDecision; reason: string | null }>(
    'orders',
    (s, name, d) => withdrawalDecisionLetter({ brand: s.brand, name, link: s.url('/profile/finance'), ...d }),
    (d) => ({
      text:
        d.decision === 'approve'
          ? `Вывод ${d.amount} одобрен`
          : `Вывод ${d.amount} отклонён, деньги вернулись на баланс`,
      link: '/profile/finance',
    }),
  ),
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
  // An account's deletion asked for (ADR 052): sent whatever the preferences say — it may not have been them.
  'privacy.deletionRequested': kind<{ due: string }>(null, (s, name, d) =>
    deletionRequestedLetter({ brand: s.brand, name, link: s.url('/profile/settings'), ...d }),
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
        number: d.number,
        title: d.title,
        stage: d.stage ?? null,
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
        number: d.number,
        title: d.title,
        stage: d.stage ?? null,
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
  // New chat messages to a member who is offline (ADR 030): a reminder, at most one per chat and hour; the chat's
  // own counters are its in-app signal.
  // A dispute's chat lives in the dispute, not on the messages page (which lists none): its link opens the dispute.
  'chat.unread': kind<{
    from: string;
    lines: string[];
    count: number;
    chatId: string;
    orderChat: boolean;
    disputeId?: string | null;
  }>('messages', (s, name, d) =>
    unreadMessagesLetter({
      brand: s.brand,
      name,
      link: s.url(
        d.disputeId
          ? disputePath(d.disputeId)
          : d.orderChat
            ? orderChatPath(d.chatId)
            : `/profile/messages?chat=${encodeURIComponent(d.chatId)}`,
      ),
      from: d.from,
      lines: d.lines,
      count: d.count,
    }),
  ),
  // Reviews (ADR 029): a review about the person became visible; the person a review is about answered it.
  'review.new': kind<{ author: string; rating: number; number: number; title: string; path: string }>(
    'reviews',
    (s, name, d) =>
      newReviewLetter({
        brand: s.brand,
        name,
        link: s.url(d.path),
        author: d.author,
        rating: d.rating,
        number: d.number,
        title: d.title,
      }),
    (d) => ({
      text: `Новый отзыв о вас по заказу №${d.number} «${d.title}»: ${d.author}, оценка ${d.rating} из 5`,
      link: d.path,
    }),
  ),
  'review.answered': kind<{ author: string; number: number; title: string; path: string }>(
    'reviews',
    (s, name, d) =>
      reviewAnsweredLetter({
        brand: s.brand,
        name,
        link: s.url(d.path),
        author: d.author,
        number: d.number,
        title: d.title,
      }),
    (d) => ({ text: `Ответ на ваш отзыв по заказу №${d.number} «${d.title}»: ${d.author}`, link: d.path }),
  ),
  // The answer to what the person asked the administration: sent whatever the preferences say (ADR 035).
  'appeal.answered': kind<{ number: number; subject: string; answer: string; path: string }>(
    null,
    (s, name, d) =>
      appealAnsweredLetter({
        brand: s.brand,
        name,
        link: s.url(d.path),
        number: d.number,
        subject: d.subject,
        answer: d.answer,
      }),
    (d) => ({ text: `Администрация ответила на ваше обращение №${d.number} «${d.subject}»`, link: d.path }),
  ),
  // Disputes (ADR 034): under "Споры"; the notification opens the person's disputes.
  'dispute.event': kind<OrderName & { id: string; event: DisputeLetterEvent; decision: string | null }>(
    'disputes',
    (s, name, d) =>
      disputeEventLetter({
        brand: s.brand,
        name,
        link: s.url(disputePath(d.id)),
        number: d.number,
        title: d.title,
        stage: d.stage ?? null,
        event: d.event,
        decision: d.decision,
      }),
    (d) => ({ text: DISPUTE_NOTICES[d.event](d), link: disputePath(d.id) }),
  ),
} satisfies Record<string, KindDef<never>>;

export type LetterKind = keyof typeof LETTER_KINDS;
export type LetterData<K extends LetterKind> = (typeof LETTER_KINDS)[K] extends KindDef<infer D> ? D : never;

/** Whether the person takes letters of this preference: on unless switched off (the settings page's default too). */
export function wantsEmail(user: Pick<UserRow, 'preferences'>, preference: NotificationKind | null): boolean {
  return preference === null || user.preferences.emailNotifications?.[preference] !== false;
}

export class Letters {
  constructor(
    private readonly deps: {
      /** The brand letters sign with: the operator's setting, read when a letter is built (ADR 036). */
      brand: string | (() => string);
      siteUrl: () => string;
      /** Signs unsubscribe links. */
      secret: string;
    },
  ) {}

  /**
   * The one way a module tells a person about an event (ADR 014, ADR 030), in the transaction of the change:
   * the in-app notification of `kind` (if it has one: written in this transaction, announced live after the
   * commit), and the letter, unless the person switched its preference off. A switchable letter carries a link
   * (and a List-Unsubscribe header) that switches its preference off. `to` sends the letter elsewhere than the
   * person's address (a new email being confirmed). Answers whether the letter was queued.
   */
  notify<K extends LetterKind>(
    outbox: OutboxWriter,
    user: Recipient,
    kind: K,
    data: LetterData<K>,
    opts: { to?: string } = {},
  ): boolean {
    const def = LETTER_KINDS[kind] as KindDef<LetterData<K>>;
    if (def.notice) outbox.notify(user.id, { kind, ...def.notice(data) });
    if (!wantsEmail(user, def.preference)) return false;
    const brand = typeof this.deps.brand === 'function' ? this.deps.brand() : this.deps.brand;
    const site: Site = { brand, url: (path) => `${this.deps.siteUrl()}${path}` };
    let letter = def.build(site, user.name, data);
    if (def.preference)
      letter = withUnsubscribe(
        letter,
        this.unsubscribeUrl(user.id, def.preference),
        NOTIFICATION_KINDS[def.preference],
      );
    outbox.mail(opts.to ?? user.email, letter);
    return true;
  }

  /** The page that switches `preference` off for this person without signing in. */
  unsubscribeUrl(userId: string, preference: NotificationKind): string {
    return `${this.deps.siteUrl()}/unsubscribe?token=${encodeURIComponent(unsubscribeToken(this.deps.secret, userId, preference))}`;
  }
}
