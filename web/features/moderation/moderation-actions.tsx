import { useState } from 'react';
import { Check, EyeOff, RotateCcw, X } from '../../components/ui/icons.tsx';
import type { ApiError } from '#contract/api';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { type ItemKind, type ModerationAction, moderationActions } from '../items/index.ts';
import { ReasonDialog } from './reason-dialog.tsx';
import { ACTION_LABELS, ACTION_ORDER, decisionBody, doneText, needsReason, reasonDialog, type ReasonAction, refusalStaysInDialog } from './decisions.ts';

// The administrator's decisions about one service or project: PATCH /api/admin/{services|projects}/{id}
// with { status, reason }. Approve and restore act at once; reject and hide ask for the reason first.

export function decide(kind: ItemKind, id: string, action: ModerationAction, reason?: string) {
  const params = { id };
  const body = decisionBody(action, reason);
  if (kind === 'service') return api.write('admin.services.moderate', { params, body });
  // A project is hidden or restored, never rejected: moderationActions offers no reject for one.
  return api.write('admin.projects.moderate', { params, body: { ...body, status: body.status as 'active' | 'hidden' } });
}

export interface ModerationActionsProps {
  kind: ItemKind;
  /** `pending_edit`: an edit of a live service waits for the decision. */
  item: { _id: string; title: string; status: string; pending_edit?: unknown };
  /** After a decision was taken (reload the list or the page). */
  onDone: () => void | Promise<void>;
  compact?: boolean;
}

const BUTTONS: Record<ModerationAction, { className: string; Icon: typeof Check }> = {
  approve: { className: 'btn--success', Icon: Check },
  restore: { className: 'btn--primary', Icon: RotateCcw },
  reject: { className: 'btn--ghost btn--danger-text', Icon: X },
  hide: { className: 'btn--ghost btn--danger-text', Icon: EyeOff },
};

export function ModerationActions({ kind, item, onDone, compact = false }: ModerationActionsProps) {
  const [asking, setAsking] = useState<ReasonAction | null>(null);
  const [busy, setBusy] = useState(false);
  const actions = moderationActions(kind, item.status, Boolean(item.pending_edit));

  async function act(action: ModerationAction, reason?: string): Promise<ApiError | undefined> {
    setBusy(true);
    const { error } = await decide(kind, item._id, action, reason);
    setBusy(false);
    if (error) {
      if (refusalStaysInDialog(error, reason)) return error;
      toast(error.message);
      setAsking(null);
      return undefined;
    }
    setAsking(null);
    toast(doneText(kind, action), { type: 'success' });
    await onDone();
    return undefined;
  }

  const size = compact ? ' btn--sm' : '';
  const dialog = reasonDialog(kind, asking ?? 'hide', item.title);
  return (
    <div className="moderation-actions">
      {ACTION_ORDER.filter((action) => actions.includes(action)).map((action) => {
        const { className, Icon } = BUTTONS[action];
        return (
          <button
            key={action}
            type="button"
            className={`btn ${className}${size}`}
            onClick={() => (needsReason(action) ? setAsking(action) : act(action))}
            disabled={busy}
            aria-label={`${ACTION_LABELS[action]} «${item.title}»`}
          >
            <Icon size={16} aria-hidden="true" /> {ACTION_LABELS[action]}
          </button>
        );
      })}
      <ReasonDialog
        open={asking !== null}
        title={dialog.title}
        text={dialog.text}
        confirmLabel={dialog.confirm}
        onConfirm={(reason) => act(asking!, reason)}
        onClose={() => setAsking(null)}
      />
    </div>
  );
}
