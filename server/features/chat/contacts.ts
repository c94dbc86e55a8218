import { CONTACT_MASK } from '#contract/chat';

// PRODUCT.md: personal contacts in messages before an order exists are masked. A pure function, so that the
// rules can be tested on their own: messenger and social links, emails, @handles, handles named after a
// messenger word, and phone numbers are replaced by CONTACT_MASK. Prices ("5 000 руб.", "30 000 – 40 000"),
// dates, times, versions and numbers shorter than seven digits are left alone.

export interface Masked {
  text: string;
  masked: boolean;
}

const SPACE = '[ \\t\\u00a0\\u2007\\u202f]';

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

const EMAIL_RE = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;

// "ivan (at) mail (dot) ru", "ivan [собака] mail.ru", "ivan собака mail точка ru".
const AT = '(?:\\s*[([{]\\s*(?:at|собака)\\s*[)\\]}]\\s*|\\s+(?:at|собака)\\s+)';
const DOT = '(?:\\s*[([{]\\s*(?:dot|точка)\\s*[)\\]}]\\s*|\\s+(?:dot|точка)\\s+|\\.)';
const OBFUSCATED_EMAIL_RE = new RegExp(`[\\p{L}\\p{N}._%+-]+${AT}[\\p{L}\\p{N}-]+(?:${DOT}[\\p{L}\\p{N}-]+)*${DOT}\\p{L}{2,}`, 'giu');

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
  `(?<![\\p{L}\\p{N}_])((?:${MESSENGER_WORDS.join('|')})${SPACE}*(?:[:—–-]${SPACE}*)?)(@?[A-Za-z][A-Za-z0-9_.]{2,31}[A-Za-z0-9_])(?![\\p{L}\\p{N}_])`,
  'giu',
);

// A messenger's name and a number of at least seven digits in any shape ("вотсап 1234567", "whatsapp: 99 91 23 45 67").
const MESSENGER_NUMBER_RE = new RegExp(
  `(?<![\\p{L}\\p{N}_])((?:${MESSENGER_WORDS.join('|')})${SPACE}*(?:[:—–-]${SPACE}*)?(?:(?:по|на)${SPACE}+)?(?:номер\\p{L}*|number|#|№)?${SPACE}*[:—–-]?${SPACE}*)(\\+?${SPACE}?\\(?\\d(?:[ \\t\\u00a0\\u202f().-]{0,3}\\d){6,14})(?![\\p{N}])`,
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

/** Whether a run of digits (and separators) is a phone number rather than a price, a range or an id. */
export function looksLikePhone(run: string, after = ''): boolean {
  const plus = run.startsWith('+');
  const digits = run.replace(/\D/g, '');
  const n = digits.length;
  if (n < 7 || n > 15) return false;
  const body = run.replace(/^\+/, '').trim();
  if (!plus) {
    // An amount: "1 500 000", "1500000 руб.".
    if (THOUSANDS_RE.test(body)) return false;
    if (PLAIN_OR_THOUSANDS_RE.test(body) && CURRENCY_AFTER_RE.test(after)) return false;
    // A range of amounts: "30 000 – 40 000", "30000-40000", "5 000 - 10 000".
    const parts = body.split(/[ \t\u00a0\u202f]*[–—][ \t\u00a0\u202f]*|[ \t\u00a0\u202f]+-[ \t\u00a0\u202f]+|-/u);
    if (
      parts.length === 2 &&
      parts.every((p) => PLAIN_OR_THOUSANDS_RE.test(p)) &&
      (/[–—]|\s-\s/u.test(body) || parts.every((p) => p.replace(/\D/g, '').length >= 4))
    ) {
      return false;
    }
  }
  const groups = body.split(/[^\d]+/).filter(Boolean);
  if (plus) return n >= 10;
  // +7 / 8 and ten digits: "8 999 123 45 67", "89991234567", "7 (999) 123-45-67".
  if (n === 11 && /^[78]/.test(digits)) return true;
  // Ten digits without the prefix, a code of three first: "999 123-45-67", "(495) 123 45 67", "9991234567".
  if (n === 10 && /^[3489]/.test(digits) && (groups.length === 1 || groups[0]!.length === 3)) return true;
  // A neighbouring country's code without the plus: "375 29 123 45 67".
  if (n === 12 && CIS_CODES_RE.test(digits)) return true;
  // A local seven-digit number: "123-45-67", "123 45 67".
  if (n === 7 && /^\d{3}[- \u00a0]\d{2}[- \u00a0]\d{2}$/u.test(body)) return true;
  return false;
}

/**
 * The phone numbers in one run of digits: the whole run, else the longest runs of its digit groups that are
 * one ("заказ 123456 89991234567", "89991234567 5 000 руб."). Spans are relative to the run.
 */
function phonesInRun(run: string, after: (end: number) => string): [number, number][] {
  if (looksLikePhone(run, after(run.length))) return [[0, run.length]];
  const groups = [...run.matchAll(/\d+/g)].map((g) => [g.index, g.index + g[0].length] as const);
  const spans: [number, number][] = [];
  for (let i = 0; i < groups.length; i++) {
    for (let j = groups.length - 1; j >= i; j--) {
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
    run = run.replace(/[\s.(–—-]+$/u, '');
    for (const [s, e] of phonesInRun(run, (end) => shielded.slice(start + end))) spans.push([start + s, start + e]);
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
