import type { UserRow } from '../../db/schema/users.ts';
import type { Letter } from '../../lib/mail.ts';
import type { OutboxWriter } from '../outbox.ts';
import type { NotificationKind } from '#contract/auth';
import {
  bidAcceptedLetter,
  bidRejectedLetter,
  newBidLetter,
  confirmationLetter,
  emailChangeLetter,
  orderEventLetter,
  passwordResetLetter,
  newReviewLetter,
  reviewAnsweredLetter,
  projectDecisionLetter,
  type OrderLetterEvent,
  serviceDecisionLetter,
  withdrawalDecisionLetter,
  type ProjectDecision,
  type ServiceDecision,
  type WithdrawalDecision,
} from './builders.ts';

/** Who a letter goes to: the name it greets and the preferences it obeys. */
export type Recipient = Pick<UserRow, 'email' | 'name' | 'preferences'>;

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
}

const kind = <D>(preference: NotificationKind | null, build: KindDef<D>['build']): KindDef<D> => ({ preference, build });
const token = (path: string, value: string) => `${path}?token=${encodeURIComponent(value)}`;

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
  'service.decision': kind<{ title: string; decision: ServiceDecision; reason: string | null }>('moderation', (s, name, d) =>
    serviceDecisionLetter({ brand: s.brand, name, link: s.url('/profile/items'), ...d }),
  ),
  'project.decision': kind<{ title: string; decision: ProjectDecision; reason: string | null; path: string }>('moderation', (s, name, d) =>
    projectDecisionLetter({ brand: s.brand, name, link: s.url(d.path), title: d.title, decision: d.decision, reason: d.reason }),
  ),
  // The money loop (issue 12): under "Заказы и оплата"; the finance page shows the decision and its reason too.
  'withdrawal.decision': kind<{ amount: string; decision: WithdrawalDecision; reason: string | null }>('orders', (s, name, d) =>
    withdrawalDecisionLetter({ brand: s.brand, name, link: s.url('/profile/finance'), ...d }),
  ),
  'bid.new': kind<{ title: string; seller: string; price: string; days: string }>('bids', (s, name, d) =>
    newBidLetter({ brand: s.brand, name, link: s.url('/profile/bids'), ...d }),
  ),
  'bid.accepted': kind<{ title: string; chatId: string }>('orders', (s, name, d) =>
    bidAcceptedLetter({ brand: s.brand, name, link: s.url(`/profile/messages?chat=${encodeURIComponent(d.chatId)}`), title: d.title }),
  ),
  'bid.rejected': kind<{ title: string }>('bids', (s, name, d) => bidRejectedLetter({ brand: s.brand, name, link: s.url('/projects'), title: d.title })),
  'order.event': kind<{ number: number; title: string; event: OrderLetterEvent; reason?: string | null; path: string }>('orders', (s, name, d) =>
    orderEventLetter({ brand: s.brand, name, link: s.url(d.path), number: d.number, title: d.title, event: d.event, reason: d.reason }),
  ),
  // Reviews (ADR 029): a review about the person became visible; the person a review is about answered it.
  'review.new': kind<{ author: string; rating: number; number: number; title: string; path: string }>('reviews', (s, name, d) =>
    newReviewLetter({ brand: s.brand, name, link: s.url(d.path), author: d.author, rating: d.rating, number: d.number, title: d.title }),
  ),
  'review.answered': kind<{ author: string; number: number; title: string; path: string }>('reviews', (s, name, d) =>
    reviewAnsweredLetter({ brand: s.brand, name, link: s.url(d.path), author: d.author, number: d.number, title: d.title }),
  ),
} satisfies Record<string, KindDef<never>>;

export type LetterKind = keyof typeof LETTER_KINDS;
export type LetterData<K extends LetterKind> = (typeof LETTER_KINDS)[K] extends KindDef<infer D> ? D : never;

/** Whether the person takes letters of this preference: on unless switched off (the settings page's default too). */
export function wantsEmail(user: Pick<UserRow, 'preferences'>, preference: NotificationKind | null): boolean {
  return preference === null || user.preferences.emailNotifications?.[preference] !== false;
}

export class Letters {
  constructor(private readonly deps: { brand: string; siteUrl: () => string }) {}

  /**
   * Queues the letter of `kind` on a transaction's outbox (it leaves after the commit, never on a rollback),
   * unless the person switched its kind off. `to` sends it elsewhere than the person's address (a new email
   * being confirmed). Answers whether it was queued.
   */
  notify<K extends LetterKind>(outbox: OutboxWriter, user: Recipient, kind: K, data: LetterData<K>, opts: { to?: string } = {}): boolean {
    const def = LETTER_KINDS[kind] as KindDef<LetterData<K>>;
    if (!wantsEmail(user, def.preference)) return false;
    const site: Site = { brand: this.deps.brand, url: (path) => `${this.deps.siteUrl()}${path}` };
    outbox.mail(opts.to ?? user.email, def.build(site, user.name, data));
    return true;
  }
}
