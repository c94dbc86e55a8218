import { Suspense, lazy, type CSSProperties } from 'react';
import { TOAST_CLOSE_ANIMATION_MS } from '#contract/constants';
import { useStore } from '../../lib/store.ts';
import { toastStore, type ToastStore } from '../../lib/toast-store.ts';

const ToastList = lazy(() => import('./toast-list.tsx').then((m) => ({ default: m.ToastList })));

/**
 * The live region of the toasts of `store` (the app-wide store by default; mount once, in root.tsx). The region is
 * always there, so screen readers announce the first toast; the toasts' code comes with that first one.
 */
export function Toaster({ store = toastStore }: { store?: ToastStore }) {
  const toasts = useStore(store);
  const style = { '--toast-exit-ms': `${TOAST_CLOSE_ANIMATION_MS}ms` } as CSSProperties;
  return (
    <div className="toaster" role="status" aria-live="polite" style={style}>
      {toasts.length > 0 && (
        <Suspense>
          <ToastList toasts={toasts} onPause={store.pause} onResume={store.resume} onDismiss={store.dismiss} />
        </Suspense>
      )}
    </div>
  );
}
