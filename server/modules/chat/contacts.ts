import { CONTACT_MASK } from '#contract/chat';
import { trimEnd } from '#contract/text';

// PRODUCT.md: personal contacts in messages before an order exists are masked. A pure function, so that the
// rules can be tested on their own: messenger and social links, emails, @handles, handles named after a
// messenger word, and phone numbers are replaced by CONTACT_MASK. Prices ("5 000 руб.", "30 000 – 40 000"),
// dates, times, versions and numbers shorter than seven digits are left alone.

export interface Masked {
  text: string;
  masked: boolean;
}

// Every pattern here runs on whatever a member types, so each is linear (docs/decisions/007): no unbounded
// quantifier may trade characters with its neighbour, and a match may only start where a token starts.
const SPACE = '[ \\t\\u00a0\\u2007\\u202f]';
/** The spaces people leave between a word and what follows: a few at most, so that gaps side by side stay cheap. */
const GAP = `${SPACE}{0,3}`;

/** Messenger and social network addresses; portfolios (GitHub, Behance, YouTube) stay. */
const CONTACT_DOMAINS = [
  't\\.me',
  'telegram\\.(?:me|dog|org)',
  'tlgrm\\.(?:me|ru)',
  'wa\\.me',
  '(?:api|chat|web)\\.whatsapp\\.com',
  'whatsapp\\.com',
  'vk\\.(?:com|ru|me|cc)',
  'vkontakte\\.ru',
  'ok\\.ru',
  'odnoklassniki\\.ru',
  'instagram\\.com',
  'instagr\\.am',
  'facebook\\.com',
  'fb\\.(?:com|me)',
  'm\\.me',
  'messenger\\.com',
  'twitter\\.com',
  'x\\.com',
  'linkedin\\.com',
  'tiktok\\.com',
  'discord(?:app)?\\.(?:com|gg)',
  'signal\\.(?:me|group)',
  '(?:invite\\.)?viber\\.com',
  '(?:join\\.)?skype\\.com',
  'max\\.ru',
  'icq\\.(?:im|com)',
  'snapchat\\.com',
  'threads\\.net',
];

// A contact address with or without a scheme, "www." or "m."; the lookbehind keeps "abct.me" or "box.com" out.
const LINK_RE = new RegExp(
  `(?<![\\p{L}\\p{N}_.@/-])(?:https?:\\/\\/)?(?:www\\.|m\\.|mobile\\.)?(?:${CONTACT_DOMAINS.join('|')})(?![\\p{L}\\p{N}_-])(?:[/?#][^\\s]*)?`,
  'giu',
);

/** Links that open a messenger or a call directly. */
const SCHEME_RE = /(?<![\p{L}\p{N}_])(?:tg|viber|skype|whatsapp|sgnl|mailto|tel|callto|sms|fb-messenger):\/{0,2}[^\s]+/giu;

const EMAIL_RE = /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;

// "ivan (at) mail (dot) ru", "ivan [собака] mail.ru", "ivan собака mail точка ru".
const AT = '(?:\\s*[([{]\\s*(?:at|собака)\\s*[)\\]}]\\s*|\\s+(?:at|собака)\\s+)';
const DOT = '(?:\\s*[([{]\\s*(?:dot|точка)\\s*[)\\]}]\\s*|\\s+(?:dot|точка)\\s+|\\.)';
const OBFUSCATED_EMAIL_RE = new RegExp(`(?<![\\p{L}\\p{N}._%+-])[\\p{L}\\p{N}._%+-]+${AT}[\\p{L}\\p{N}-]+(?:${DOT}[\\p{L}\\p{N}-]+)*${DOT}\\p{L}{2,}`, 'giu');

/** A Telegram / Instagram style handle: a Latin letter first, at least 4 characters after the @. */
const HANDLE_RE = /(?<![\p{L}\p{N}_.@/])@[A-Za-z](?:[A-Za-z0-9_]|\.(?=[A-Za-z0-9_])){3,31}(?![\p{L}\p{N}_@])/gu;

/** A messenger's name followed by a handle ("мой телеграм ivan_petrov", "tg: @ivan", "инста ivan.art"). */
const MESSENGER_WORDS = [
  'телеграм\\p{L}*',
  'телеграмм\\p{L}*',
  'телега',
  'телеге',
  'тг',
  'tg',
  'telegram',
  'whatsapp',
  'вотсап\\p{L}*',
  'ватсап\\p{L}*',
  'вацап\\p{L}*',
  'viber',
  'вайбер\\p{L}*',
  'skype',
  'скайп\\p{L}*',
  'discord',
  'дискорд\\p{L}*',
  'instagram',
  'инстаграм\\p{L}*',
  'инста',
  'инсте',
  'инсту',
  'insta',
  'вк',
  'vk',
  'вконтакте',
  'facebook',
  'фейсбук\\p{L}*',
  'мессенджер\\p{L}*',
];
const MESSENGER_HANDLE_RE = new RegExp(
  `(?<![\\p{L}\\p{N}_])((?:${MESSENGER_WORDS.join('|')})${GAP}(?:[:—–-]${GAP})?)(@?[A-Za-z][A-Za-z0-9_.]{2,31}[A-Za-z0-9_])(?![\\p{L}\\p{N}_])`,
  'giu',
);

// A messenger's name and a number of at least seven digits in any shape ("вотсап 1234567", "whatsapp: 99 91 23 45 67").
const MESSENGER_NUMBER_RE = new RegExp(
  `(?<![\\p{L}\\p{N}_])((?:${MESSENGER_WORDS.join('|')})${GAP}(?:[:—–-]${GAP})?(?:(?:по|на)${SPACE}{1,3})?(?:номер\\p{L}{0,4}|number|#|№)?${GAP}[:—–-]?${GAP})(\\+?${SPACE}?\\(?\\d(?:[ \\t\\u00a0\\u202f().-]{0,3}\\d){6,14})(?![\\p{N}])`,
  'giu',
);

/** Dates, times and ISO dates, which are never phone numbers (kept out before looking for numbers). */
const PROTECTED_RE = new RegExp(
  [
    '(?<![\\p{N}])\\d{1,2}[./]\\d{1,2}[./](?:\\d{4}|\\d{2})(?![\\p{N}])',
    '(?<![\\p{N}])\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2})?)?(?![\\p{N}])',
    '(?<![\\p{N}])\\d{1,2}:\\d{2}(?::\\d{2})?(?![\\p{N}])',
  ].join('|'),
  'gu',
);

// A run of digits with the separators people put into phone numbers: spaces, dashes, dots, brackets.
const SEP = `(?:${SPACE}{0,2}[-–—.()]{1,2}${SPACE}{0,2}|${SPACE}{1,2})`;
const NUMBER_RUN_RE = new RegExp(`(?<![\\p{L}\\p{N}_])(?:\\+${SPACE}?)?\\(?\\d(?:${SEP}?\\d)*\\)?`, 'gu');

const CURRENCY_AFTER_RE = /^[ \t\u00a0\u202f]*(?:руб|р\.|р\b|₽|rub|usd|usdt|btc|\$|€|eur|тыс|млн|k\b|к\b|%|шт)/iu;
const THOUSANDS_RE = /^\d{1,3}(?:[ \u00a0\u2007\u202f]\d{3})+$/u;
const PLAIN_OR_THOUSANDS_RE = /^(?:\d+|\d{1,3}(?:[ \u00a0\u2007\u202f]\d{3})+)$/u;
const CIS_CODES_RE = /^(?:375|380|374|994|995|996|998|992|993|373|371|372|370)/;

/** looksLikePhone refuses fewer or more digits than these, so only candidates in between are tried. */
const MIN_PHONE_DIGITS = 7;
const MAX_PHONE_DIGITS = 15;
/** How much of the text after a number is read to tell an amount ("… руб.", "… тыс") from a phone. */
const AFTER_CHARS = 16;

/** Whether a run of digits (and separators) is a phone number rather than a price, a range or an id. */
export function looksLikePhone(run: string, after = ''): boolean {
  const plus = run.startsWith('+');
  const digits = run.replace(/\D/g, '');
  const n = digits.length;
  if (n < MIN_PHONE_DIGITS || n > MAX_PHONE_DIGITS) return false;
  if (plus) return n >= 10;
  const body = run.trim();
  // The shape of a number first (cheap, and most runs fail it), then what would make it an amount instead.
  return hasPhoneShape(digits, body) && !isAmount(body, after);
}

function hasPhoneShape(digits: string, body: string): boolean {
  const n = digits.length;
  // +7 / 8 and ten digits: "8 999 123 45 67", "89991234567", "7 (999) 123-45-67".
  if (n === 11) return /^[78]/.test(digits);
  // Ten digits without the prefix, a code of three first: "999 123-45-67", "(495) 123 45 67", "9991234567".
  if (n === 10) return /^[3489]/.test(digits) && /^\D*(?:\d{3}\D|\d{10})/.test(body);
  // A neighbouring country's code without the plus: "375 29 123 45 67".
  if (n === 12) return CIS_CODES_RE.test(digits);
  // A local seven-digit number: "123-45-67", "123 45 67".
  return n === 7 && /^\d{3}[- \u00a0]\d{2}[- \u00a0]\d{2}$/u.test(body);
}

/** An amount ("1 500 000", "1500000 руб.") or a range of amounts ("30 000 – 40 000", "30000-40000"). */
function isAmount(body: string, after: string): boolean {
  if (THOUSANDS_RE.test(body)) return true;
  if (PLAIN_OR_THOUSANDS_RE.test(body) && CURRENCY_AFTER_RE.test(after)) return true;
  const parts = body.split(/[ \t\u00a0\u202f]{0,3}[–—][ \t\u00a0\u202f]{0,3}|[ \t\u00a0\u202f]{1,3}-[ \t\u00a0\u202f]{1,3}|-/u);
  return (
    parts.length === 2 &&
    parts.every((p) => PLAIN_OR_THOUSANDS_RE.test(p)) &&
    (/[–—]|\s-\s/u.test(body) || parts.every((p) => p.replace(/\D/g, '').length >= 4))
  );
}

/**
 * The phone numbers in one run of digits: the whole run, else the longest runs of its digit groups that are
 * one ("заказ 123456 89991234567", "89991234567 5 000 руб."). Spans are relative to the run. Linear in the run:
 * from each group only the groups within MAX_PHONE_DIGITS digits are tried, each a short slice.
 */
function phonesInRun(run: string, after: (end: number) => string): [number, number][] {
  if (looksLikePhone(run, after(run.length))) return [[0, run.length]];
  const groups = [...run.matchAll(/\d+/g)].map((g) => [g.index, g.index + g[0].length] as const);
  const spans: [number, number][] = [];
  const size = (g: number) => groups[g]![1] - groups[g]![0];
  for (let i = 0; i < groups.length; i++) {
    let reach = i;
    let digits = size(i);
    while (reach + 1 < groups.length && digits + size(reach + 1) <= MAX_PHONE_DIGITS) digits += size(++reach);
    for (let j = reach; j >= i; digits -= size(j--)) {
      if (digits < MIN_PHONE_DIGITS) break;
      if (i === 0 && j === groups.length - 1) continue;
      const start = i === 0 ? 0 : groups[i]![0];
      const end = groups[j]![1];
      if (looksLikePhone(run.slice(start, end), after(end))) {
        spans.push([start, end]);
        i = j;
        break;
      }
    }
  }
  return spans;
}

function maskPhones(text: string): string {
  // Dates and times become placeholders of the same length, so positions stay those of the original text.
  const shielded = text.replace(PROTECTED_RE, (m) => '\uE000'.repeat(m.length));
  const spans: [number, number][] = [];
  for (const m of shielded.matchAll(NUMBER_RUN_RE)) {
    let run = m[0];
    let start = m.index;
    // Brackets count only in pairs; trailing separators are not part of the number.
    if (run.endsWith(')') && !run.slice(0, -1).includes('(')) run = run.slice(0, -1);
    if (run.startsWith('(') && !run.includes(')')) {
      run = run.slice(1);
      start += 1;
    }
    run = trimEnd(run, ' \t\n\r\u00a0\u2007\u202f.(–—-');
    for (const [s, e] of phonesInRun(run, (end) => shielded.slice(start + end, start + end + AFTER_CHARS))) spans.push([start + s, start + e]);
  }
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    out += text.slice(at, start) + CONTACT_MASK;
    at = end;
  }
  return out + text.slice(at);
}

/** Replaces personal contacts in a message with CONTACT_MASK; `masked` tells whether anything was replaced. */
export function maskContacts(input: string): Masked {
  let text = input;
  text = text.replace(SCHEME_RE, CONTACT_MASK);
  text = text.replace(LINK_RE, CONTACT_MASK);
  text = text.replace(EMAIL_RE, CONTACT_MASK);
  text = text.replace(OBFUSCATED_EMAIL_RE, CONTACT_MASK);
  text = text.replace(MESSENGER_NUMBER_RE, (_whole, word: string) => `${word}${CONTACT_MASK}`);
  text = text.replace(MESSENGER_HANDLE_RE, (whole, word: string, handle: string) =>
    // "telegram bots" is a topic, "телеграм: ivan", "tg ivan_petrov" and "мой телеграм ivanpetrov" are contacts.
    /[_\d@.]/.test(handle) || /[:—–-]/.test(word) || (/\p{Script=Cyrillic}/u.test(word) && handle.length >= 5)
      ? `${word}${CONTACT_MASK}`
      : whole,
  );
  text = text.replace(HANDLE_RE, CONTACT_MASK);
  text = maskPhones(text);
  return { text, masked: text !== input };
}

/** Every pattern above, for the test that checks them for super-linear backtracking (lint cannot read `new RegExp`). */
export const CONTACT_PATTERNS: Readonly<Record<string, RegExp>> = {
  LINK_RE,
  SCHEME_RE,
  EMAIL_RE,
  OBFUSCATED_EMAIL_RE,
  HANDLE_RE,
  MESSENGER_HANDLE_RE,
  MESSENGER_NUMBER_RE,
  PROTECTED_RE,
  NUMBER_RUN_RE,
  CURRENCY_AFTER_RE,
  THOUSANDS_RE,
  PLAIN_OR_THOUSANDS_RE,
  CIS_CODES_RE,
};
