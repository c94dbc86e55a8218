import { LOCALE } from '#contract/constants';

export type DateInput = Date | string | number;

const relativeFormat = new Intl.RelativeTimeFormat('ru', { numeric: 'auto' });
const dayMonthFormat = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'long' });
const dayMonthYearFormat = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'long', year: 'numeric' });
const numericDateFormat = new Intl.DateTimeFormat(LOCALE, { day: '2-digit', month: '2-digit', year: 'numeric' });

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY_MS = 86_400_000;

export function toDate(date: DateInput): Date {
  return date instanceof Date ? date : new Date(date);
}

/** Whole local calendar days from `from` to `to` (DST-safe: compares local midnights). */
function calendarDayDiff(from: Date, to: Date): number {
  const a = new Date(from.getFullYear(), from.getMonth(), from.getDate()).getTime();
  const b = new Date(to.getFullYear(), to.getMonth(), to.getDate()).getTime();
  return Math.round((b - a) / DAY_MS);
}

/**
 * Russian relative time: "только что", "5 минут назад", "через 2 часа", "вчера",
 * "3 дня назад", then an absolute date ("5 марта", or "5 марта 2025 г." for another year).
 * Returns '' for an invalid date. Uses the runtime's local time zone.
 */
export function formatRelative(date: DateInput, now: Date = new Date()): string {
  const d = toDate(date);
  const t = d.getTime();
  if (Number.isNaN(t)) return '';
  const seconds = (t - now.getTime()) / 1000;
  const abs = Math.abs(seconds);

  if (abs < 45) return 'только что';

  const minutes = Math.round(seconds / MINUTE);
  if (Math.abs(minutes) < 60) return relativeFormat.format(minutes === 0 ? Math.sign(seconds) : minutes, 'minute');

  const hours = Math.round(seconds / HOUR);
  if (Math.abs(hours) < 24) return relativeFormat.format(hours, 'hour');

  // At least a day apart: count calendar days so "вчера" really means yesterday.
  let days = calendarDayDiff(now, d);
  if (days === 0) days = Math.sign(seconds);
  if (Math.abs(days) < 7) return relativeFormat.format(days, 'day');

  return d.getFullYear() === now.getFullYear() ? dayMonthFormat.format(d) : dayMonthYearFormat.format(d);
}

/** Absolute date, e.g. "5 марта 2026 г.". Returns '' for an invalid date. */
export function formatDate(date: DateInput): string {
  const d = toDate(date);
  return Number.isNaN(d.getTime()) ? '' : dayMonthYearFormat.format(d);
}

/** A date in a table's column, e.g. "05.03.2026". Returns '' for an invalid date. */
export function formatShortDate(date: DateInput): string {
  const d = toDate(date);
  return Number.isNaN(d.getTime()) ? '' : numericDateFormat.format(d);
}

// Built once per time zone (none on pages, one in tests): a formatter costs far more to make than to use.
const dateTimeFormats = new Map<string | undefined, Intl.DateTimeFormat>();
function dateTimeFormat(timeZone: string | undefined) {
  let format = dateTimeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short', timeZone });
    dateTimeFormats.set(timeZone, format);
  }
  return format;
}

/**
 * A date and time with whose time it is (ADR 046): the reader's own zone, which the browser knows, labelled, e.g.
 * "25 ноября 2026 г. в 14:30 (GMT+3)". `timeZone` is for tests; pages pass none.
 */
export function formatDateTime(date: DateInput, timeZone?: string): string {
  const d = toDate(date);
  if (Number.isNaN(d.getTime())) return '';
  const parts = dateTimeFormat(timeZone).formatToParts(d);
  const zone = parts.find((p) => p.type === 'timeZoneName')?.value ?? '';
  const rest = parts
    .filter((p) => p.type !== 'timeZoneName')
    .map((p) => p.value)
    .join('')
    .trim();
  return zone ? `${rest} (${zone})` : rest;
}

// The plural helpers live in contract/text.ts, shared with the server's letters; re-exported for the pages.
export { plural, pluralWithCount } from '#contract/plural';
