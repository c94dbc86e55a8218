import { useState } from 'react';
import { Check, EyeOff, RotateCcw, X } from '../../components/ui/icons.tsx';
import type { ApiError } from '#contract/api';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { type ItemKind, type ModerationAction, moderationActions } from '../items/index.ts';
import { ReasonDialog } from './reason-dialog.tsx';

// The administrator's decisions about one service or project: PATCH /api/admin/{services|projects}/{id}
// with { status, reason }. Approve and restore act at once; reject and hide ask for the reason first.

const LABELS: Record<ModerationAction, string> = {
  approve: 'Одобрить',
  reject: 'Отклонить',
  hide: 'Скрыть',
  restore: 'Восстановить',
};

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

const STATUS_OF: Record<ModerationAction, 'active' | 'rejected' | 'hidden'> = {
  approve: 'active',
  restore: 'active',
  reject: 'rejected',
  hide: 'hidden',
};

export function decide(kind: ItemKind, id: string, action: ModerationAction, reason?: string) {
  const params = { id };
  const given = reason ? { reason } : {};
  if (kind === 'service') return api.write('admin.services.moderate', { params, body: { status: STATUS_OF[action], ...given } });
  // A project is hidden or restored, never rejected: moderationActions offers no reject for one.
  return api.write('admin.projects.moderate', { params, body: { status: STATUS_OF[action] as 'active' | 'hidden', ...given } });
}

export interface ModerationActionsProps {
  kind: ItemKind;
  /** `pending_edit`: an edit of a live service waits for the decision. */
  item: { _id: string; title: string; status: string; pending_edit?: unknown };
  /** After a decision was taken (reload the list or the page). */
  onDone: () => void | Promise<void>;
  compact?: boolean;
}

export function ModerationActions({ kind, item, onDone, compact = false }: ModerationActionsProps) {
  const [asking, setAsking] = useState<'reject' | 'hide' | null>(null);
  const [busy, setBusy] = useState(false);
  const actions = moderationActions(kind, item.status, Boolean(item.pending_edit));
  const what = kind === 'service' ? 'услугу' : 'проект';

  async function act(action: ModerationAction, reason?: string): Promise<ApiError | undefined> {
    setBusy(true);
    const { error } = await decide(kind, item._id, action, reason);
    setBusy(false);
    if (error) {
      // A reason the server did not accept stays in the dialog; anything else is a toast.
      if (reason && error.errors?.reason) return error;
      toast(error.message);
      setAsking(null);
      return undefined;
    }
    setAsking(null);
    toast(DONE[kind][action], { type: 'success' });
    await onDone();
    return undefined;
  }

  const size = compact ? ' btn--sm' : '';
  return (
    <div className="moderation-actions">
      {actions.includes('approve') && (
        <button
          type="button"
          className={`btn btn--success${size}`}
          onClick={() => act('approve')}
          disabled={busy}
          aria-label={`Одобрить «${item.title}»`}
        >
          <Check size={16} aria-hidden="true" /> {LABELS.approve}
        </button>
      )}
      {actions.includes('restore') && (
        <button
          type="button"
          className={`btn btn--primary${size}`}
          onClick={() => act('restore')}
          disabled={busy}
          aria-label={`Восстановить «${item.title}»`}
        >
          <RotateCcw size={16} aria-hidden="true" /> {LABELS.restore}
        </button>
      )}
      {actions.includes('reject') && (
        <button
          type="button"
          className={`btn btn--ghost btn--danger-text${size}`}
          onClick={() => setAsking('reject')}
          disabled={busy}
          aria-label={`Отклонить «${item.title}»`}
        >
          <X size={16} aria-hidden="true" /> {LABELS.reject}
        </button>
      )}
      {actions.includes('hide') && (
        <button
          type="button"
          className={`btn btn--ghost btn--danger-text${size}`}
          onClick={() => setAsking('hide')}
          disabled={busy}
          aria-label={`Скрыть «${item.title}»`}
        >
          <EyeOff size={16} aria-hidden="true" /> {LABELS.hide}
        </button>
      )}
      <ReasonDialog
        open={asking !== null}
        title={asking === 'reject' ? `Отклонить ${what}?` : `Скрыть ${what}?`}
        text={
          asking === 'reject'
            ? `«${item.title}» вернётся владельцу. Причину он увидит в письме и в личном кабинете, исправит и отправит снова.`
            : `«${item.title}» пропадёт из каталога и поиска. Владелец увидит причину в письме и в личном кабинете.`
        }
        confirmLabel={asking === 'reject' ? 'Отклонить' : 'Скрыть'}
        onConfirm={(reason) => act(asking!, reason)}
        onClose={() => setAsking(null)}
      />
    </div>
  );
}
