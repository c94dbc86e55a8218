import type { Chat, ChatMember, Message } from '#contract/chat';
import { fullName } from '../../lib/people.ts';
import type { Target } from './composer.tsx';
import { chatServiceId } from './format.ts';
import type { ChatTab } from './state.ts';

// The messages page's open conversation (SPEC §4): a chat picked from a list, or a deep link to a person
// (?to={userId}&service={serviceId}) whose chat appears with the first message.

/** A person the deep link names, as the profile answer gives them. */
export interface LinkedPerson {
  _id: string;
  name: string;
  surname: string;
  user_name: string;
  avatar: string | null;
  online_status: boolean;
}

/** The deep link's person before their chat exists: `person` is undefined while loading, null when not found. */
export interface Pending {
  to: string;
  service?: string;
  person?: LinkedPerson | null;
}

export const CHAT_TABS: readonly { tab: ChatTab; label: string }[] = [
  { tab: 'chats', label: 'Чаты' },
  { tab: 'orders', label: 'Заказы' },
];

/** The tab the address asks for (?tab=orders), else the chats. */
export const tabFromAddress = (params: URLSearchParams): ChatTab => (params.get('tab') === 'orders' ? 'orders' : 'chats');

/** The deep link of the address, if it names a person. */
export function pendingFromAddress(params: URLSearchParams): Pending | null {
  const to = params.get('to');
  return to ? { to, service: params.get('service') ?? undefined } : null;
}

/** Unseen messages over a tab's chats (its count on the tab). */
export const tabUnseen = (chats: readonly Pick<Chat, 'unseen_messages'>[]) => chats.reduce((n, c) => n + c.unseen_messages, 0);

/**
 * The tab to open when the address names none, once both lists are in: the open chat's, else the one with news. The
 * header's count once led to an empty «Чаты» tab while every unread message waited in an order's chat.
 */
export function tabToOpen(lists: Record<ChatTab, readonly Pick<Chat, '_id' | 'unseen_messages'>[]>, activeId: string | null): ChatTab {
  if (activeId && lists.orders.some((c) => c._id === activeId)) return 'orders';
  if (activeId && lists.chats.some((c) => c._id === activeId)) return 'chats';
  if (tabUnseen(lists.orders) > 0 && tabUnseen(lists.chats) === 0) return 'orders';
  return !lists.chats.length && lists.orders.length ? 'orders' : 'chats';
}

/** Where the composer sends: the open chat, else the linked person (with the service it is about), else nowhere. */
export function messageTarget(activeId: string | null, pending: Pending | null): Target | null {
  if (activeId) return { chat_id: activeId };
  if (!pending) return null;
  return { recipient: pending.to, ...(pending.service ? { service_id: pending.service } : {}) };
}

/** The service a direct conversation is about («Написать продавцу» on a service's page), shown as a small card. */
export function aboutService(pending: Pending | null, active: Chat | undefined, messages: readonly Message[]): string | null {
  if (pending) return pending.service ?? null;
  return active?.kind === 'direct' ? chatServiceId(messages, active.service_id) : null;
}

/** Who the conversation is with, in its head: the chat's other member, else the linked person. */
export function conversationHead(o: {
  active: Chat | undefined;
  other: ChatMember | undefined;
  pending: Pending | null;
  online: Record<string, boolean>;
}): { person: LinkedPerson | ChatMember | undefined; name: string; online: boolean } {
  const { active, other, pending, online } = o;
  const person = other ?? pending?.person ?? undefined;
  const name = person ? fullName(person) : pending && pending.person === null ? 'Пользователь не найден' : active ? 'Чат' : '';
  const known = other ?? pending?.person;
  return { person, name, online: known ? (online[known._id] ?? known.online_status) : false };
}
