import { useEffect } from 'react';
import { useNavigation } from 'react-router';
import { progressStore, type ProgressStore } from '../../lib/progress-store.ts';
import { useStore } from '../../lib/store.ts';

export interface ProgressBarViewProps {
  /** 0..100; 0 hides the bar. */
  value: number;
}

/** Presentational 3px bar fixed at the very top of the viewport. */
export function ProgressBarView({ value }: ProgressBarViewProps) {
  const hidden = value <= 0;
  const clamped = Math.min(100, Math.max(0, value));
  return (
    <div
      className={`progress-bar${hidden ? ' progress-bar--hidden' : ''}`}
      role="progressbar"
      aria-label="Загрузка"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(clamped)}
      aria-hidden={hidden ? true : undefined}
    >
      <div className="progress-bar__fill" style={{ width: `${clamped}%` }} />
    </div>
  );
}

/** The top progress bar driven by `store` (the app-wide progress store by default). */
export function ProgressBar({ store = progressStore }: { store?: ProgressStore }) {
  const value = useStore(store);
  return <ProgressBarView value={value} />;
}

/**
 * Feeds React Router navigations (loading / submitting) into the progress store.
 * Call once inside the router (e.g. in the root Layout/App component).
 */
export function useNavigationProgress(store: ProgressStore = progressStore): void {
  const busy = useNavigation().state !== 'idle';
  useEffect(() => {
    store.setNavigating(busy);
  }, [busy, store]);
  useEffect(() => () => store.setNavigating(false), [store]);
}
