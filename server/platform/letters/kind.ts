// What a kind of letter is (ADR 014, ADR 030) and the paths its notices link to; the kinds are in notify.ts and
// order-kinds.ts.
import type { Letter } from '../../lib/mail.ts';
import type { NotificationKind } from '#contract/auth';

/** The in-app notification of an event: one line of text and the path of the object it is about. */
export interface Notice {
  text: string;
  link: string;
}

export interface Site {
  brand: string;
  /** An absolute link to a path of the site. */
  url(path: string): string;
}

export interface KindDef<D> {
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

export const kind = <D>(
  preference: NotificationKind | null,
  build: KindDef<D>['build'],
  notice?: (data: D) => Notice,
): KindDef<D> => ({
  preference,
  build,
  ...(notice ? { notice } : {}),
});

/** An order's chat on the messages page. */
export const orderChatPath = (chatId: string) => `/profile/messages?tab=orders&chat=${encodeURIComponent(chatId)}`;
/** A dispute's own place: the person's disputes with this one open, its chat included (ADR 046). */
export const disputePath = (disputeId: string) => `/profile/disputes?dispute=${encodeURIComponent(disputeId)}`;
