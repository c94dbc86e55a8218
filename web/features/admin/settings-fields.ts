import type { Settings } from '#contract/settings';
import { kopecksToRubles } from '../../lib/money.ts';

// The operator settings as the form shows them (ADR 036): each key's group, label and unit, its stored value as
// the text of its field (percent for basis points, rubles for kopecks, MiB for bytes) and back. A key this table
// does not describe (added by another module) still shows, by its key, as a number or as JSON.

export type Kind = 'percentBp' | 'rubles' | 'int' | 'number' | 'mib' | 'text' | 'json' | 'bool';
export interface Descriptor {
  group: GroupId;
  label: string;
  kind: Kind;
  unit?: string;
  hint?: string;
}

export const GROUPS = [
  ['money', 'Комиссии и вознаграждения'],
  ['orders', 'Заказы'],
  ['payments', 'Оплата и вывод'],
  ['catalog', 'Услуги и отклики'],
  ['reviews', 'Отзывы'],
  ['brand', 'Бренд'],
  ['uploads', 'Файлы'],
  ['notifications', 'Уведомления'],
  ['support', 'Споры и обращения'],
  ['security', 'Безопасность'],
  ['other', 'Прочее'],
] as const;
export type GroupId = (typeof GROUPS)[number][0];

export const DESCRIPTORS: Partial<Record<keyof Settings, Descriptor>> = {
  'orders.commissionBp': { group: 'money', label: 'Комиссия площадки', kind: 'percentBp', unit: '%', hint: 'С цены выполненного заказа. Действует для заказов, оформленных после изменения.' },
  'referrals.buyerBp': { group: 'money', label: 'Награда за приведённого покупателя', kind: 'percentBp', unit: '%', hint: 'Доля цены заказа, из комиссии' },
  'referrals.sellerBp': { group: 'money', label: 'Награда за приведённого исполнителя', kind: 'percentBp', unit: '%', hint: 'Доля цены заказа, из комиссии' },
  'referrals.months': { group: 'money', label: 'Срок реферальных выплат', kind: 'int', unit: 'мес.', hint: 'С регистрации приведённого' },
  'orders.autoAcceptDays': { group: 'orders', label: 'Автоприёмка сданного заказа через', kind: 'int', unit: 'дн.' },
  'orders.cancelWindowMinutes': { group: 'orders', label: 'Отмена без причины после оплаты в течение', kind: 'int', unit: 'мин' },
  'orders.stageFundingReminderDays': { group: 'orders', label: 'Напоминать об оплате следующего этапа через', kind: 'int', unit: 'дн.', hint: 'После завершения предыдущего этапа; один раз, заказчику и исполнителю' },
  'orders.draftHours': { group: 'orders', label: 'Неоплаченный заказ отменяется через', kind: 'int', unit: 'ч', hint: 'Исполнитель о нём не узнаёт' },
  'withdrawals.minAmount': { group: 'payments', label: 'Минимальный вывод', kind: 'rubles', unit: 'руб.' },
  'payments.quoteMinutes': { group: 'payments', label: 'Курс крипто-оплаты держится', kind: 'int', unit: 'мин' },
  'rates.fallbackUSDT': { group: 'payments', label: 'Запасной курс USDT', kind: 'number', unit: 'руб.', hint: 'Пока сервис курсов не ответил; 0 — нет' },
  'rates.fallbackBTC': { group: 'payments', label: 'Запасной курс BTC', kind: 'number', unit: 'руб.', hint: 'Пока сервис курсов не ответил; 0 — нет' },
  'services.minPrice': { group: 'catalog', label: 'Минимальная цена услуги', kind: 'rubles', unit: 'руб.', hint: 'И каждого пакета услуги' },
  'bids.perDay': { group: 'catalog', label: 'Откликов в день на исполнителя', kind: 'int' },
  'bids.minComment': { group: 'catalog', label: 'Минимальная длина отклика', kind: 'int', unit: 'симв.' },
  'reviews.blindDays': { group: 'reviews', label: 'Срок отзывов', kind: 'int', unit: 'дн.', hint: 'Отзывы скрыты, пока не оставлены оба или не кончился срок' },
  'reviews.ratingMonths': { group: 'reviews', label: 'Рейтинг — среднее отзывов за', kind: 'int', unit: 'мес.' },
  'reviews.minText': { group: 'reviews', label: 'Минимальная длина отзыва', kind: 'int', unit: 'симв.' },
  'brand.name': { group: 'brand', label: 'Название', kind: 'text', hint: 'В заголовке страниц («Страница - Название»), в шапке и в письмах' },
  'brand.description': { group: 'brand', label: 'Описание по умолчанию', kind: 'text', hint: 'Для страниц без своего описания (meta description)' },
  'uploads.quotaBytes': { group: 'uploads', label: 'Место на файлы одного пользователя', kind: 'mib', unit: 'МиБ' },
  'uploads.perHour': { group: 'uploads', label: 'Загрузок в час на пользователя', kind: 'int', hint: 'С одного адреса — в десять раз больше' },
  'notifications.unreadLetterDelayMinutes': { group: 'notifications', label: 'Письмо о непрочитанных сообщениях через', kind: 'int', unit: 'мин' },
  'notifications.unreadLetterIntervalMinutes': { group: 'notifications', label: 'Не чаще одного письма о чате в', kind: 'int', unit: 'мин' },
  'disputes.flagDays': { group: 'support', label: 'Спор без решения отмечается через', kind: 'int', unit: 'дн.', hint: 'В очереди споров администратора' },
  'appeals.perDay': { group: 'support', label: 'Обращений в сутки с одного аккаунта', kind: 'int' },
  'appeals.perAddressPerDay': { group: 'support', label: 'Обращений в сутки с одного адреса', kind: 'int' },
  'twoFactor.admins': { group: 'security', label: 'Двухфакторная защита обязательна для администраторов', kind: 'bool', hint: 'Без неё администратор не откроет ни одной страницы раздела' },
  'twoFactor.everyone': { group: 'security', label: 'Двухфакторная защита обязательна для всех', kind: 'bool', hint: 'Без неё нельзя вывести деньги и сменить email, пароль или реквизиты' },
  'twoFactor.stepUp': { group: 'security', label: 'Подтверждать кодом вывод и смену email, пароля, реквизитов', kind: 'bool', hint: 'Для тех, у кого защита включена; подтверждение действует 5 минут' },
  'privacy.deletionCoolingOffDays': { group: 'support', label: 'Удаление аккаунта после запроса через', kind: 'int', unit: 'дн.', hint: 'Пока срок не истёк, человек может отменить удаление' },
};

/** Edited elsewhere: the ways to pay (their table below) and the synonyms (/admin/search-suggestions). */
export const OWN_EDITORS = new Set<string>(['payments.methods', 'search.synonyms']);

const MIB = 1024 * 1024;

/** The descriptor of a key, or the fallback for a key this table does not know (shown by its key). */
export function describeSetting(key: string, value: unknown): Descriptor {
  const known = DESCRIPTORS[key as keyof Settings];
  if (known) return known;
  const kind: Kind = typeof value === 'boolean' ? 'bool' : typeof value === 'number' ? (Number.isInteger(value) ? 'int' : 'number') : typeof value === 'string' ? 'text' : 'json';
  return { group: 'other', label: key, kind };
}

/** The text of a field for a stored value. */
export function settingText(kind: Kind, value: unknown): string {
  switch (kind) {
    case 'percentBp':
      return String((value as number) / 100);
    case 'rubles':
      return kopecksToRubles(value as number);
    case 'mib':
      return String((value as number) / MIB);
    case 'text':
      return String(value);
    case 'json':
      return JSON.stringify(value);
    case 'bool':
      return value ? 'true' : 'false';
    default:
      return String(value);
  }
}

/** The stored value of a field, or an error to show under it. */
export function settingValue(kind: Kind, text: string): { value: unknown } | { error: string } {
  if (kind === 'text') return { value: text };
  if (kind === 'bool') return { value: text === 'true' };
  if (kind === 'json') {
    try {
      return { value: JSON.parse(text) };
    } catch {
      return { error: 'Неверный JSON' };
    }
  }
  const n = Number(text.replace(/\s/g, '').replace(',', '.'));
  if (text.trim() === '' || !Number.isFinite(n)) return { error: 'Введите число' };
  switch (kind) {
    case 'percentBp':
    case 'rubles':
      return { value: Math.round(n * 100) };
    case 'mib':
      return { value: Math.round(n * MIB) };
    case 'int':
      return Number.isInteger(n) ? { value: n } : { error: 'Введите целое число' };
    default:
      return { value: n };
  }
}

const valueOf = (settings: Settings, key: string) => settings[key as keyof Settings];

/** The keys this form edits: all but those with an editor of their own. */
export const editableKeys = (settings: Settings) => Object.keys(settings).filter((k) => !OWN_EDITORS.has(k));

/** The fields' texts the form opens with. */
export const initialTexts = (settings: Settings, keys: readonly string[]): Record<string, string> =>
  Object.fromEntries(keys.map((k) => [k, settingText(describeSetting(k, valueOf(settings, k)).kind, valueOf(settings, k))]));

/** The keys of one group, in the settings' order. */
export const keysOfGroup = (settings: Settings, keys: readonly string[], group: GroupId) =>
  keys.filter((k) => describeSetting(k, valueOf(settings, k)).group === group);

/**
 * What a save sends: each field read back into its stored value, the errors of those that cannot be, and a patch of
 * only what changed (a value another admin changed meanwhile is not written back).
 */
export function settingsPatch(
  settings: Settings,
  keys: readonly string[],
  texts: Record<string, string>,
): { errors: Record<string, string[]>; patch: Record<string, unknown> } {
  const errors: Record<string, string[]> = {};
  const patch: Record<string, unknown> = {};
  for (const key of keys) {
    const result = settingValue(describeSetting(key, valueOf(settings, key)).kind, texts[key] ?? '');
    if ('error' in result) errors[key] = [result.error];
    else if (JSON.stringify(result.value) !== JSON.stringify(valueOf(settings, key))) patch[key] = result.value;
  }
  return { errors, patch };
}

/** A field's first error: its own key's, or that of a part of it (`payments.methods.card.rate`). */
export const fieldError = (errors: Record<string, string[]>, key: string) =>
  Object.entries(errors).find(([k]) => k === key || k.startsWith(`${key}.`))?.[1]?.[0];
