import type { UserRow } from '../../modules/users/schema.ts';
import type { OutboxWriter } from '../outbox.ts';
import { NOTIFICATION_KINDS, type NotificationKind } from '#contract/auth';
import { unsubscribeToken } from './unsubscribe.ts';
import { withUnsubscribe } from './layout.ts';
import { disputePath, kind, orderChatPath, type KindDef, type Site } from './kind.ts';
import { ORDER_LETTER_KINDS } from './order-kinds.ts';
import {
  appealAnsweredLetter,
  confirmationLetter,
  emailChangeLetter,
  passwordResetLetter,
  newDeviceLetter,
  deletionRequestedLetter,
  type SignInDetails,
  twoFactorResetLetter,
  newReviewLetter,
  reviewAnsweredLetter,
  projectDecisionLetter,
  serviceDecisionLetter,
  unreadMessagesLetter,
  withdrawalDecisionLetter,
  type ProjectDecision,
  type ServiceDecision,
  type WithdrawalDecision,
} from './builders.ts';

export type { Notice } from './kind.ts';

/** Who a letter goes to: the name it greets and the preferences it obeys (and, by id, whose notification it is). */
export type Recipient = Pick<UserRow, 'id' | 'email' | 'name' | 'preferences'>;

const token = (path: string, value: string) => `${path}?token=${encodeURIComponent(value)}`;

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
  // An account's deletion asked for (ADR 052): sent whatever the preferences say — it may not have been them.
  'privacy.deletionRequested': kind<{ due: string }>(null, (s, name, d) =>
    deletionRequestedLetter({ brand: s.brand, name, link: s.url('/profile/settings'), ...d }),
  ),
  ...ORDER_LETTER_KINDS,
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
