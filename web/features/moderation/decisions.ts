import type { ApiError } from '#contract/api';
import type { ItemKind, ModerationAction } from '../items/index.ts';

// The administrator's decisions about a service or a project, in words: the buttons, what each sets, what the
// reason dialog asks and what is said once done. Which decisions a state allows is items' moderationActions.

export const ACTION_LABELS: Record<ModerationAction, string> = {
  approve: 'Одобрить',
  reject: 'Отклонить',
  hide: 'Скрыть',
  restore: 'Восстановить',
};

/** The buttons' order on the page: the decisions that publish first, then those that ask for a reason. */
export const ACTION_ORDER: readonly ModerationAction[] = ['approve', 'restore', 'reject', 'hide'];

/** The decisions that ask for the reason first (the owner reads it); the others act at once. */
export type ReasonAction = 'reject' | 'hide';
export const needsReason = (action: ModerationAction): action is ReasonAction => action === 'reject' || action === 'hide';

const DONE: Record<ItemKind, Record<ModerationAction, string>> = {
  service: {
    approve: 'Услуга одобрена и опубликована',
    reject: 'Услуга отклонена',
    hide: 'Услуга скрыта',
    restore: 'Услуга восстановлена',
  },
  project: {
    approve: 'Проект опубликован',
    reject: 'Проект отклонён',
    hide: 'Проект скрыт',
    restore: 'Проект восстановлен',
  },
};

/** What is said once the decision is taken. */
export const doneText = (kind: ItemKind, action: ModerationAction) => DONE[kind][action];

const STATUS_OF: Record<ModerationAction, 'active' | 'rejected' | 'hidden'> = {
  approve: 'active',
  restore: 'active',
  reject: 'rejected',
  hide: 'hidden',
};

/** The body of PATCH /api/admin/{services|projects}/{id}: the state the decision sets, and its reason when given. */
export function decisionBody(action: ModerationAction, reason?: string) {
  return { status: STATUS_OF[action], ...(reason ? { reason } : {}) };
}

/** The reason dialog of a decision about «title». */
export function reasonDialog(kind: ItemKind, action: ReasonAction, title: string) {
  const what = kind === 'service' ? 'услугу' : 'проект';
  if (action === 'reject') {
    return {
      title: `Отклонить ${what}?`,
      text: `«${title}» вернётся владельцу. Причину он увидит в письме и в личном кабинете, исправит и отправит снова.`,
      confirm: 'Отклонить',
    };
  }
  return {
    title: `Скрыть ${what}?`,
    text: `«${title}» пропадёт из каталога и поиска. Владелец увидит причину в письме и в личном кабинете.`,
    confirm: 'Скрыть',
  };
}

/** A reason the server did not accept stays in the dialog, to be corrected; any other refusal is a toast. */
export const refusalStaysInDialog = (error: Pick<ApiError, 'errors'>, reason: string | undefined) =>
  Boolean(reason && error.errors?.reason);

export const REASON_MIN = 3;
export const REASON_MAX = 500;

/** A reason too short to send, said before asking the server; null when it may go (trimmed). */
export const reasonProblem = (reason: string) => (reason.trim().length < REASON_MIN ? 'Укажите причину: хотя бы несколько слов' : null);

/** What the dialog says of a refusal it keeps: the reason's own error, else the message. */
export const refusalText = (problem: Pick<ApiError, 'message' | 'errors'>) => problem.errors?.reason?.[0] ?? problem.message;
