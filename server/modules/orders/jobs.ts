import type { SettingsService } from '../../platform/settings.ts';
import type { TxContext } from '../../platform/tx.ts';

// The orders' delayed jobs: when each is due and how it is queued (one per order, by its dedupe key).

/** The delayed job that accepts a delivered order nobody answered (ADR 025). */
export const AUTO_ACCEPT_JOB = 'orders.autoAccept';
/** The delayed job that cancels a service's order nobody paid, quietly (ADR 042). */
export const EXPIRE_DRAFT_JOB = 'orders.expireDraft';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

type Settings = Pick<SettingsService, 'get'>;

/** When a delivery made at `deliveredAt` is accepted for a customer who does not answer (orders.autoAcceptDays). */
export async function autoAcceptDue(ctx: TxContext, settings: Settings, deliveredAt: Date): Promise<Date> {
  const days = await settings.get('orders.autoAcceptDays', ctx.tx);
  return new Date(deliveredAt.getTime() + days * DAY_MS);
}

export function scheduleAutoAccept(ctx: TxContext, orderId: string, at: Date): void {
  ctx.outbox.job(AUTO_ACCEPT_JOB, { orderId }, { at, dedupeKey: `auto-accept:${orderId}` });
}

/** When a draft made at `createdAt` is cancelled unless paid (orders.draftHours). */
export async function draftExpiryDue(ctx: TxContext, settings: Settings, createdAt: Date): Promise<Date> {
  const hours = await settings.get('orders.draftHours', ctx.tx);
  return new Date(createdAt.getTime() + hours * HOUR_MS);
}

export function scheduleDraftExpiry(ctx: TxContext, orderId: string, at: Date): void {
  ctx.outbox.job(EXPIRE_DRAFT_JOB, { orderId }, { at, dedupeKey: `expire-draft:${orderId}` });
}
