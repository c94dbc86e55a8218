import { z } from 'zod';
import { DEFAULT_PAYMENT_RATES, paymentRatesSchema } from './payments.ts';
import { MAX_PRICE, MIN_PRICE_FLOOR, MIN_SERVICE_PRICE } from './catalog-constants.ts';
import { charsAfter } from './plural.ts';

// Operator settings: every business number an operator may change without editing code. Adding one is one line
// here (its range and default); the admin API validates against it and the server reads it through
// server/platform/settings.ts.

const MIB = 1024 * 1024;

/**
 * The search's synonym dictionary (ADR 028): groups of interchangeable spellings — Latin and Cyrillic names of
 * brands and tools, abbreviations. A search for any word of a group finds the others too.
 */
export const DEFAULT_SEARCH_SYNONYMS: string[][] = [
  ['telegram', 'телеграм', 'телеграмм', 'тг'],
  ['wordpress', 'вордпресс', 'вордпрес'],
  ['seo', 'сео'],
  ['smm', 'смм'],
  ['figma', 'фигма'],
  ['tilda', 'тильда'],
  ['photoshop', 'фотошоп'],
  ['instagram', 'инстаграм', 'инстаграмм'],
  ['youtube', 'ютуб', 'ютьюб'],
  ['вконтакте', 'вк', 'vk', 'vkontakte'],
  ['python', 'питон', 'пайтон'],
  ['javascript', 'джаваскрипт', 'js'],
  ['react', 'реакт'],
  ['php', 'пхп'],
  ['excel', 'эксель', 'ексель'],
  ['powerpoint', 'пауэрпоинт'],
  ['google', 'гугл'],
  ['yandex', 'яндекс'],
  ['wildberries', 'вайлдберриз', 'вб'],
  ['ozon', 'озон'],
  ['avito', 'авито'],
  ['bitrix', 'битрикс'],
  ['crm', 'срм'],
  ['chatgpt', 'чатгпт', 'gpt'],
  ['нейросеть', 'ии', 'ai'],
  ['landing', 'лендинг', 'лэндинг'],
  ['логотип', 'logo', 'лого'],
  ['бот', 'bot'],
];

const synonymWord = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .refine((w) => /[\p{L}\p{N}]/u.test(w), 'Слово должно содержать буквы или цифры');

export const synonymGroupsSchema = z.array(z.array(synonymWord).min(2, 'В группе нужно хотя бы два слова').max(12)).max(1_000);

/**
 * One line of text shown to everybody: trimmed, inner runs of whitespace as one space, no markup characters. An
 * overwrite, not a transform: the answers' schemas encode with it too, and a transform cannot be encoded.
 */
const brandText = (max: number) =>
  z
    .string()
    .overwrite((s) => s.replace(/\s+/g, ' ').trim())
    .min(1, 'Заполните поле')
    .max(max, `Не длиннее ${charsAfter(max)}`)
    .refine((s) => !/[<>]/.test(s), 'Без символов < и >');

export const settingsSchema = z.object({
  /** Bytes of uploads one person may keep. */
  'uploads.quotaBytes': z.number().int().min(MIB).max(1024 * 1024 * MIB).default(1024 * MIB),
  /** Uploads one person may make in an hour (one address: ten times as many). */
  'uploads.perHour': z.number().int().min(1).max(10_000).default(60),

  // The money loop (ADR 025). Percentages are basis points (1 % = 100), money is kopecks.
  /** The platform's commission on a completed order. */
  'orders.commissionBp': z.number().int().min(0, 'Не меньше 0 %').max(5_000, 'Не больше 50 %').default(1_500),
  /** A delivered order is accepted automatically after this many days. */
  'orders.autoAcceptDays': z.number().int().min(1).max(60).default(3),
  /** The customer may cancel without a reason this many minutes after paying. */
  'orders.cancelWindowMinutes': z.number().int().min(0).max(24 * 60).default(20),
  /** An unpaid order of a service is cancelled quietly this many hours after it was made (ADR 042). */
  'orders.draftHours': z.number().int().min(1).max(30 * 24).default(48),
  /** A stage still unfunded this many days after the stage before it completed is reminded of, once (ADR 065). */
  'orders.stageFundingReminderDays': z.number().int().min(1).max(30).default(3),
  /** The smallest withdrawal. */
  'withdrawals.minAmount': z.number().int().min(100, 'Не меньше 1\u00a0руб.').max(100_000_000, 'Не больше 1\u00a0000\u00a0000\u00a0руб.').default(50_000),
  /** How long a crypto quote holds. */
  'payments.quoteMinutes': z.number().int().min(1).max(120).default(15),
  /** The ways to pay (GET /api/payments/rates): currency, fee, limits. */
  'payments.methods': paymentRatesSchema.default(DEFAULT_PAYMENT_RATES),
  /** New bids one seller may place in a day, and the shortest comment. */
  'bids.perDay': z.number().int().min(1).max(1_000).default(30),
  'bids.minComment': z.number().int().min(1).max(1_000).default(30),
  /** The letter about unread chat messages (ADR 030): sent this many minutes after a message if still unseen and
   * the recipient offline, and at most once per chat and recipient in this many minutes. */
  'notifications.unreadLetterDelayMinutes': z.number().int().min(1).max(24 * 60).default(10),
  'notifications.unreadLetterIntervalMinutes': z.number().int().min(1).max(7 * 24 * 60).default(60),
  /** Referral rewards out of the commission, on orders of people brought in the last N months. */
  'referrals.buyerBp': z.number().int().min(0, 'Не меньше 0 %').max(5_000, 'Не больше 50 %').default(350),
  'referrals.sellerBp': z.number().int().min(0, 'Не меньше 0 %').max(5_000, 'Не больше 50 %').default(250),
  'referrals.months': z.number().int().min(0).max(120).default(12),

  // Reviews (ADR 029).
  /** Days after an order's completion during which its parties may review it; hidden reviews are published then. */
  'reviews.blindDays': z.number().int().min(1).max(90).default(14),
  /** A seller's rating is the mean of the reviews of this many last months. */
  'reviews.ratingMonths': z.number().int().min(1).max(120).default(24),
  /** The shortest review text (the customer's; the seller's text is optional, but not shorter when given). */
  'reviews.minText': z.number().int().min(1).max(1_000).default(10),

  // Appeals (ADR 035).
  /** Appeals one account may write in 24 hours. */
  'appeals.perDay': z.number().int().min(1).max(1_000).default(10),
  /** Appeals from one address in 24 hours, all accounts together (several people may share an address). */
  'appeals.perAddressPerDay': z.number().int().min(1).max(10_000).default(30),
  // Disputes (ADR 034).
  /** An open dispute with no decision after this many days is flagged on /admin/disputes. */
  'disputes.flagDays': z.number().int().min(1).max(90).default(7),
  // Personal data (ADR 052).
  /** Days between a person's request to delete their account and its anonymisation; they may cancel meanwhile. */
  'privacy.deletionCoolingOffDays': z.number().int().min(0).max(30).default(14),

  /** Rubles per USDT and per BTC used while the rates service has given none (PRODUCT.md); 0 = none. */
  'rates.fallbackUSDT': z.number().min(0).max(1_000_000).default(0),
  'rates.fallbackBTC': z.number().min(0).max(1_000_000_000).default(0),

  /** The cheapest a service (and each of its packages) may be priced, kopecks (PRODUCT.md: 500 ₽). */
  'services.minPrice': z.number().int().min(MIN_PRICE_FLOOR, 'Не меньше 1\u00a0руб.').max(MAX_PRICE, 'Не больше 1\u00a0000\u00a0000\u00a0руб.').default(MIN_SERVICE_PRICE),

  // Brand texts (ADR 036): the title template "{title} - {brand}", the header, the footer, letters.
  /** The brand's name; unset, the server's BRAND_NAME (the environment) is used. */
  'brand.name': brandText(60).default('Подряд'),
  /** The description of a page that has none of its own. */
  'brand.description': brandText(300).default('Биржа услуг'),

  // The second factor (ADR 054).
  /** Administrators must have a second factor before any admin page or call. */
  'twoFactor.admins': z.boolean().default(true),
  /** Everyone must have one before a withdrawal, a change of payout details, email or password. */
  'twoFactor.everyone': z.boolean().default(false),
  /** A person with a second factor confirms each withdrawal and each change of payout details, email or password. */
  'twoFactor.stepUp': z.boolean().default(true),

  /** The search's synonym groups (ADR 028). */
  'search.synonyms': synonymGroupsSchema.default(DEFAULT_SEARCH_SYNONYMS),
});

export type Settings = z.output<typeof settingsSchema>;
export type SettingKey = keyof Settings;
export const SETTING_KEYS = Object.keys(settingsSchema.shape) as SettingKey[];

type Shape = typeof settingsSchema.shape;
/**
 * A change from the admin form: any subset of the settings, nothing unknown. Built from the fields WITHOUT their
 * defaults: zod 4 fills an absent optional field that has a default, so `settingsSchema.partial()` turned every
 * partial change into a reset of all the other settings.
 */
export const settingsPatchSchema = z
  .object(
    Object.fromEntries(Object.entries(settingsSchema.shape).map(([key, field]) => [key, field.unwrap().optional()])) as {
      [K in keyof Shape]: z.ZodOptional<ReturnType<Shape[K]['unwrap']>>;
    },
  )
  .strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;
