import { LOCALE } from '#contract/constants';
import { toDate, type DateInput } from '../../lib/dates.ts';
import { trimEnd } from '#contract/text';
import { CHAT_MESSAGES } from '#contract/chat-constants';
import type { Chat, Message } from '#contract/chat';
import type { OrderStatus } from '#contract/money';
import { ORDER_STATUS_LABELS } from '#contract/order-constants';

// Pure helpers of the chat page: plain text split into text and safe links, day separators, sizes, the list's lines.

export type TextPart = { type: 'text'; text: string } | { type: 'link'; text: string; href: string };

const URL_RE = /\bhttps?:\/\/[^\s<>"'`]+/gi;
/** Punctuation that ends a sentence rather than a link. */
const TRAILING = '.,!?;:)]}»"\'';

/** Splits plain text into text and http(s) links; nothing else ever becomes a link. */
export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_RE)) {
    const start = match.index;
    const raw = trimEnd(match[0], TRAILING);
    let href: string | null = null;
    try {
      const url = new URL(raw);
      if (url.protocol === 'http:' || url.protocol === 'https:') href = url.href;
    } catch {
      href = null;
    }
    if (!href) continue;
    if (start > last) parts.push({ type: 'text', text: text.slice(last, start) });
    parts.push({ type: 'link', text: raw, href });
    last = start + raw.length;
  }
  if (last < text.length) parts.push({ type: 'text', text: text.slice(last) });
  return parts;
}

const dayMonth = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'long' });
const dayMonthYear = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'long', year: 'numeric' });
const time = new Intl.DateTimeFormat(LOCALE, { hour: '2-digit', minute: '2-digit' });
const sizeFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 1 });

const midnight = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();

/** "Сегодня", "Вчера", "5 марта", or "5 марта 2025 г." for another year. */
export function dayLabel(date: DateInput, now: Date = new Date()): string {
  const d = toDate(date);
  if (Number.isNaN(d.getTime())) return '';
  const days = Math.round((midnight(now) - midnight(d)) / 86_400_000);
  if (days === 0) return 'Сегодня';
  if (days === 1) return 'Вчера';
  return d.getFullYear() === now.getFullYear() ? dayMonth.format(d) : dayMonthYear.format(d);
}

/** A key that changes with the local calendar day. */
export const dayKey = (date: DateInput) => {
  const d = toDate(date);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
};

export const timeLabel = (date: DateInput) => {
  const d = toDate(date);
  return Number.isNaN(d.getTime()) ? '' : time.format(d);
};

/** "512 Б", "1,5 КБ", "2,3 МБ". */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} Б`;
  const units = ['КБ', 'МБ', 'ГБ'];
  let n = bytes / 1024;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i += 1;
  }
  return `${sizeFormat.format(n)} ${units[i]}`;
}

export const isImage = (mime: string) => /^image\/(png|jpe?g|gif|webp|avif)$/i.test(mime);

/**
 * The note under a message whose contacts the server masked, for its sender only (ADR 046): the sender wrote the
 * contacts and would otherwise not know why the other side sees «скрыто»; the other side sees the mask itself.
 */
export const maskedNote = (m: Pick<Message, 'masked' | 'sender'>, me: string | null): string | null =>
  m.masked && m.sender._id === me ? CHAT_MESSAGES.contactsMasked : null;

/**
 * The service a direct conversation is about now (ADR 046): the newest message (messages come newest first) that
 * names one, else the one the chat began about.
 */
export function chatServiceId(
  messages: readonly Pick<Message, 'service_id'>[],
  first: string | null | undefined,
): string | null {
  return messages.find((m) => m.service_id)?.service_id ?? first ?? null;
}

/** The chat list's line under a name: the last message («Вы: » before one's own), its files' count, or none yet. */
export function chatPreview(chat: Pick<Chat, 'last_message'>, me: string | null): string {
  const m = chat.last_message;
  if (!m) return 'Нет сообщений';
  const body = m.message.trim() || (m.files.length ? `Файлы: ${m.files.length}` : '');
  return `${m.sender._id === me ? 'Вы: ' : ''}${body}`;
}

/** «Заказ №12 · Оплачен» of an order's chat (its state when it is a known one), null for other chats. */
export function chatOrderLine(order: Chat['order']): string | null {
  if (typeof order?.number !== 'number') return null;
  const label = typeof order.status === 'string' ? ORDER_STATUS_LABELS[order.status as OrderStatus] : undefined;
  return `Заказ №${order.number}${label ? ` · ${label}` : ''}`;
}
