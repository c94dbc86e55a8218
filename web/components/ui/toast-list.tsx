import { X } from './icons.tsx';
import type { Toast } from '../../lib/toast-store.ts';

// The toasts themselves, loaded with the first one (web/components/ui/toaster.tsx): a guest who never sees a toast
// never downloads them (issue 11).

export interface ToastItemProps {
  toast: Toast;
  onPause?: (id: number) => void;
  onResume?: (id: number) => void;
  onDismiss?: (id: number) => void;
}

/** One toast. Hover or keyboard focus pauses its auto-close timer. */
export function ToastItem({ toast, onPause, onResume, onDismiss }: ToastItemProps) {
  const { id } = toast;
  return (
    <div
      className={`toast toast--${toast.type}${toast.state === 'closing' ? ' toast--closing' : ''}`}
      data-state={toast.state}
      data-type={toast.type}
      onMouseEnter={() => onPause?.(id)}
      onMouseLeave={() => onResume?.(id)}
      onFocus={() => onPause?.(id)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onResume?.(id);
      }}
    >
      <p className="toast__message">{toast.message}</p>
      <button type="button" className="toast__close" aria-label="Закрыть" onClick={() => onDismiss?.(id)}>
        <X size={16} aria-hidden="true" focusable="false" />
      </button>
    </div>
  );
}

export interface ToastListProps {
  toasts: readonly Toast[];
  onPause?: (id: number) => void;
  onResume?: (id: number) => void;
  onDismiss?: (id: number) => void;
}

/** The stack of toasts, inside the Toaster's live region (fixed, top-right; full width on narrow screens). */
export function ToastList({ toasts, onPause, onResume, onDismiss }: ToastListProps) {
  return toasts.map((t) => <ToastItem key={t.id} toast={t} onPause={onPause} onResume={onResume} onDismiss={onDismiss} />);
}
