import type { CSSProperties } from 'react';
import { X } from './icons.tsx';
import { TOAST_CLOSE_ANIMATION_MS } from '#contract/constants';
import { useStore } from '../../lib/store.ts';
import { toastStore, type Toast, type ToastStore } from '../../lib/toast-store.ts';

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

/** Presentational stack of toasts (fixed, top-right; full width on narrow screens). */
export function ToastList({ toasts, onPause, onResume, onDismiss }: ToastListProps) {
  const style = { '--toast-exit-ms': `${TOAST_CLOSE_ANIMATION_MS}ms` } as CSSProperties;
  return (
    <div className="toaster" role="status" aria-live="polite" style={style}>
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} onPause={onPause} onResume={onResume} onDismiss={onDismiss} />
      ))}
    </div>
  );
}

/** Renders the toasts of `store` (the app-wide store by default). Mount once, e.g. in root.tsx. */
export function Toaster({ store = toastStore }: { store?: ToastStore }) {
  const toasts = useStore(store);
  return <ToastList toasts={toasts} onPause={store.pause} onResume={store.resume} onDismiss={store.dismiss} />;
}
