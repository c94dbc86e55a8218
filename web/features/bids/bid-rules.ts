import { BID_COMMENT_MAX, BID_COMMENT_MIN_DEFAULT, BID_MESSAGES } from '#contract/bid-constants';
import { MAX_PRICE, MIN_SERVICE_PRICE } from '#contract/catalog-constants';
import { formatRubles } from '#contract/money-format';
import { bidStageSchema, STAGE_MESSAGES, STAGES_MAX, STAGES_MIN, type BidStage } from '#contract/bids';
import { kopecksToRubles, rublesToKopecks } from '../../lib/money.ts';
import { charCount } from './format.tsx';

// The seller's bid form's own checks, before the server's: a price in rubles within the limits, a term of days,
// a comment of the length the server asks for by default.

export type BidErrors = Record<string, string[]>;

/** The form's errors by field (none when it may be sent), and the price and days to send. */
export function checkBid(form: { price: string; days: string; comment: string }, min = BID_COMMENT_MIN_DEFAULT) {
  const errors: BidErrors = {};
  const kopecks = rublesToKopecks(form.price);
  if (kopecks === undefined || Number.isNaN(kopecks)) errors.price = ['Укажите цену в рублях'];
  else if (kopecks < MIN_SERVICE_PRICE) errors.price = [`Цена — от ${formatRubles(MIN_SERVICE_PRICE)}`];
  else if (kopecks > MAX_PRICE) errors.price = ['Слишком большая сумма'];
  const days = Number(form.days);
  if (!Number.isInteger(days) || days < 1 || days > 365) errors.days = ['Срок — от 1 до 365 дней'];
  const length = charCount(form.comment);
  if (length < min) errors.comment = [BID_MESSAGES.commentTooShort(min)];
  if (length > BID_COMMENT_MAX) errors.comment = [`Комментарий — до ${BID_COMMENT_MAX} символов`];
  return { errors, body: { price: kopecks as number, days, comment: form.comment.trim() } };
}

/** The comment's counter: how many are still missing, then how many of the most. */
export const commentCounter = (length: number, min = BID_COMMENT_MIN_DEFAULT) =>
  length < min ? { short: true, text: `${length} из ${min} — ещё ${min - length}` } : { short: false, text: `${length} / ${BID_COMMENT_MAX}` };

/** A stage as the form holds it (ADR 065): the amount in rubles and the days as typed. */
export interface StageDraft {
  title: string;
  deliverable: string;
  amount: string;
  days: string;
}

export const emptyStage = (): StageDraft => ({ title: '', deliverable: '', amount: '', days: '' });

/** The stages of a bid being edited, as the form holds them. */
export const stageDrafts = (stages: readonly BidStage[] | null | undefined): StageDraft[] =>
  (stages ?? []).map((s) => ({ title: s.title, deliverable: s.deliverable, amount: kopecksToRubles(s.amount), days: String(s.days) }));

const typedNumber = (text: string) => (text.trim() === '' ? undefined : Number(text.trim()));

/** The typed stages' totals: the amounts that read as rubles, and the days that read as a number. */
export function stageTotals(drafts: readonly StageDraft[]): { amount: number; days: number } {
  let amount = 0;
  let days = 0;
  for (const d of drafts) {
    const kopecks = rublesToKopecks(d.amount);
    if (kopecks !== undefined && !Number.isNaN(kopecks)) amount += kopecks;
    const n = typedNumber(d.days);
    if (n !== undefined && Number.isFinite(n)) days += n;
  }
  return { amount, days };
}

/**
 * The stages' errors by the server's field names (`stages.0.title`, and `stages` for the count and the sums), by the
 * contract's own schema and messages, and the stages to send.
 */
export function checkStages(drafts: readonly StageDraft[], price: number, days: number): { errors: BidErrors; stages: BidStage[] } {
  const errors: BidErrors = {};
  const add = (key: string, message: string) => (errors[key] ??= []).push(message);
  const stages: BidStage[] = [];
  drafts.forEach((d, i) => {
    const kopecks = rublesToKopecks(d.amount);
    const parsed = bidStageSchema.safeParse({
      title: d.title,
      deliverable: d.deliverable,
      amount: kopecks === undefined || Number.isNaN(kopecks) ? undefined : kopecks,
      days: typedNumber(d.days),
    });
    if (parsed.success) stages.push(parsed.data);
    else for (const issue of parsed.error.issues) add(`stages.${i}.${issue.path.join('.')}`, issue.message);
  });
  if (drafts.length < STAGES_MIN) add('stages', `Этапов — от ${STAGES_MIN}`);
  if (drafts.length > STAGES_MAX) add('stages', `Этапов — не больше ${STAGES_MAX}`);
  const totals = stageTotals(drafts);
  // Against a price and a term that are themselves right (their own errors say the rest).
  if (Number.isInteger(price) && totals.amount !== price) add('stages', STAGE_MESSAGES.sumPrice);
  if (Number.isInteger(days) && totals.days !== days) add('stages', STAGE_MESSAGES.sumDays);
  return { errors, stages };
}

/** The whole form: the bid's own checks, then its stages' when it is split (`drafts` null: one whole order). */
export function checkBidForm(form: { price: string; days: string; comment: string }, drafts: readonly StageDraft[] | null, min = BID_COMMENT_MIN_DEFAULT) {
  const bid = checkBid(form, min);
  if (!drafts) return bid;
  const split = checkStages(drafts, bid.errors.price ? Number.NaN : bid.body.price, bid.errors.days ? Number.NaN : bid.body.days);
  return { errors: { ...bid.errors, ...split.errors }, body: { ...bid.body, stages: split.stages } };
}
